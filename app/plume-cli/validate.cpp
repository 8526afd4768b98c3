// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/commands.h>

#include <app/plume-cli/common.h>

#include <cstdio>
#include <optional>

namespace plume::cli {

int validate(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption quietOpt("quiet", "Print nothing on success, and no warnings.");
    parser.addOption(quietOpt);
    if (auto done = parseCommand(parser, arguments, "validate",
                                 "Reads a scene file and checks every value, shape and "
                                 "referenced image. Exit code 0: valid; 2: refused."))
        return *done;
    const QString path = parser.positionalArguments()[1];
    std::optional<plume::Scene> scene = loadScene(path, parser.isSet(quietOpt));
    if (!scene)
        return kExitUsage;
    if (!parser.isSet(quietOpt))
        std::printf("%s: valid\n", qPrintable(path));
    return kExitOk;
}

} // namespace plume::cli
