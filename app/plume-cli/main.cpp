// SPDX-License-Identifier: Apache-2.0
// plume-cli: the Plume core without a GUI. Exit codes: 0 success, 1 failure while running,
// 2 bad usage or invalid input (a refused --resume too), 3 the grid does not fit in memory.
// One source file per command (commands.h); what they share is in common.h.
#include <app/plume-cli/commands.h>
#include <app/plume-cli/common.h>

#include <QCoreApplication>

#include <cstdio>

namespace {

void printHelp()
{
    std::puts("Usage: plume-cli <command> [options]\n"
              "\n"
              "Commands:\n"
              "  validate   check a scene file\n"
              "  info       describe a scene: domain, cells, items, memory\n"
              "  bake       simulate a scene and write OpenVDB files, flipbooks or images\n"
              "  wedge      write variations of a scene (--vary KEY=VALUES), one scene file\n"
              "             each, and a manifest listing each variation's values\n"
              "  farm       bake scenes or wedges on a Slurm farm (submit, status)\n"
              "  simulate   run a built-in scene headless and print per-frame timings\n"
              "\n"
              "'plume-cli <command> --help' describes a command's options.\n"
              "Exit codes: 0 success, 1 failure while running, 2 bad usage or invalid input\n"
              "(bake: also a refused --resume), 3 the grid does not fit in memory.");
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("plume-cli");
    QCoreApplication::setApplicationVersion(PLUME_VERSION);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
        printHelp();
        return args.size() < 2 ? plume::cli::kExitUsage : plume::cli::kExitOk;
    }
    if (args[1] == "--version") {
        std::printf("plume-cli %s\n", PLUME_VERSION);
        return plume::cli::kExitOk;
    }
    if (args[1] == "simulate")
        return plume::cli::simulate(args);
    if (args[1] == "validate")
        return plume::cli::validate(args);
    if (args[1] == "info")
        return plume::cli::info(args);
    if (args[1] == "bake")
        return plume::cli::bake(args);
    if (args[1] == "wedge")
        return plume::cli::wedge(args);
    if (args[1] == "farm")
        return plume::cli::farm(args);
    return plume::cli::usageError("unknown command '" + args[1] + "'");
}
