// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/commands.h>

#include <app/plume-cli/common.h>

#include <core/bake/wedge.h>

#include <QDir>
#include <QFileInfo>

#include <cstdio>
#include <optional>

namespace plume::cli {

int wedge(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outputOpt({"o", "output"}, "Folder of the variations' scenes.", "DIR");
    const QCommandLineOption varyOpt(
        "vary",
        "A key and its values: a list a,b,c or a range A:B:N (N values from A to B inclusive). "
        "Keys are scene-format paths: simulation.vorticity, items[NAME].emitter.fuel, "
        "items[INDEX].offset[1], export.render.densityScale (docs/wedges.md). Repeat for "
        "more keys; the wedge is their product.",
        "KEY=VALUES");
    const QCommandLineOption randomOpt(
        "random",
        QString("Instead of the product: N variations, each key drawn uniformly from its range "
                "A:B (integers where the key takes integers) or its list. At most %1 variations.")
            .arg(kMaxWedgeVariations),
        "N");
    const QCommandLineOption seedOpt("seed", "Seed of --random, in [0, 4294967295] (default 0).",
                                     "S");
    const QCommandLineOption quietOpt("quiet", "Print nothing on success, and no warnings.");
    parser.addOptions({outputOpt, varyOpt, randomOpt, seedOpt, quietOpt});
    if (auto done = parseCommand(
            parser, arguments, "wedge",
            QString("Writes one scene per variation of SCENE, DIR/<scene>_w<k>.plume, each a "
                    "valid scene that bakes its variation alone (relative file references "
                    "rewritten for DIR), and the manifest DIR/<scene>_wedge.json naming each "
                    "variation's values. Every value is checked by the scene reader; a bad key, "
                    "a value out of range or more than %1 variations is refused. Bake a "
                    "variation with 'plume-cli bake DIR/<scene>_w<k>.plume -o OUT': its files "
                    "take the name <scene>_w<k>. Exit codes: 0 written; 1 a file could not be "
                    "written; 2 bad usage, scene or values (docs/wedges.md).")
                .arg(kMaxWedgeVariations)))
        return *done;
    if (!parser.isSet(outputOpt))
        return usageError("wedge needs an output folder: -o DIR");
    if (!parser.isSet(varyOpt))
        return usageError("wedge needs at least one --vary KEY=VALUES");
    WedgeSpec spec;
    for (const QString &text : parser.values(varyOpt)) {
        auto axis = parseWedgeAxis(text.toStdString());
        if (!axis)
            return usageError("--vary " + QString::fromStdString(axis.error()));
        spec.axes.push_back(axis.take());
    }
    if (parser.isSet(seedOpt) && !parser.isSet(randomOpt))
        return usageError("--seed goes with --random N");
    if (parser.isSet(randomOpt)) {
        WedgeRandom random;
        if (!parsePositiveInt(parser.value(randomOpt), random.count)
            || random.count > kMaxWedgeVariations)
            return usageError(QString("--random must be an integer in [1, %1], got '%2'")
                                  .arg(kMaxWedgeVariations)
                                  .arg(parser.value(randomOpt)));
        if (parser.isSet(seedOpt)) {
            bool ok = false;
            const qulonglong seed = parser.value(seedOpt).toULongLong(&ok);
            if (!ok || seed > 4294967295ull)
                return usageError("--seed must be an integer in [0, 4294967295], got '"
                                  + parser.value(seedOpt) + "'");
            random.seed = std::uint32_t(seed);
        }
        spec.random = random;
    }
    const bool quiet = parser.isSet(quietOpt);
    const QString path = parser.positionalArguments()[1];
    const std::optional<Scene> scene = loadScene(path, quiet);
    if (!scene)
        return kExitUsage;
    const QFileInfo info(path);
    if (const sim::Status checked = checkWedge(*scene, spec, info.fileName()); !checked) {
        std::fprintf(stderr, "plume-cli: %s\n", checked.error.c_str());
        return kExitUsage;
    }
    const std::string stem = info.completeBaseName().toStdString();
    const std::string dir = QDir(parser.value(outputOpt)).absolutePath().toStdString();
    const auto planned = planWedge(*scene, info.absoluteFilePath().toStdString(), stem, spec, dir);
    if (!planned) {
        std::fprintf(stderr, "plume-cli: %s\n", planned.error().c_str());
        return kExitUsage;
    }
    const WedgePlan &plan = planned.value();
    if (const sim::Status s = writeWedge(plan, stem, dir); !s) {
        std::fprintf(stderr, "plume-cli: %s\n", s.error.c_str());
        return kExitFailure;
    }
    if (!quiet) {
        for (const WedgeVariation &v : plan.manifest.variations) {
            std::printf("%s", v.name.c_str());
            for (const auto &[key, value] : v.values)
                std::printf("  %s=%s", key.c_str(), formatWedgeValue(value).c_str());
            std::printf("\n");
        }
        std::printf("wrote %zu scene%s and %s\n", plan.scenes.size(),
                    plan.scenes.size() == 1 ? "" : "s", qPrintable(wedgeManifestPath(dir, stem)));
    }
    return kExitOk;
}

} // namespace plume::cli
