// SPDX-License-Identifier: Apache-2.0
// plume: the authoring window. `plume [scene.plume]` opens the scene, or the default smoke
// plume (resources/scenes/plume-2d.plume, embedded), and starts simulating it. When a Plume
// crashed with unsaved changes, it then offers to restore them (docs/app-cache.md).
#include <ui/mainwindow/frameratemeter.h>
#include <ui/mainwindow/mainwindow.h>
#include <ui/viewport/glprobe.h>

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char **argv)
{
    // The volume view's OpenGL 3.3 core format, asked for before the application exists.
    QSurfaceFormat::setDefaultFormat(plume::volumeSurfaceFormat());
    QApplication app(argc, argv);
    QApplication::setApplicationName("Plume");
    QApplication::setOrganizationName("Plume");
    QApplication::setApplicationVersion(PLUME_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Plume: grid-based fluid effects authoring.\n\n"
        "Unsaved changes are autosaved every minute for recovery after a crash "
        "(PLUME_AUTOSAVE_MS in the environment sets the interval in milliseconds); simulated "
        "frames beyond the memory budget spill to <scene>.plume-cache beside the scene "
        "(Edit > Preferences sets the budgets).");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("scene", "A .plume scene file to open.", "[scene.plume]");
    const QCommandLineOption benchmarkOpt(
        "benchmark-frames",
        "Simulate and show the scene, time N new frames after 10 warm-up frames (3D: in the "
        "quad layout with the volume view), print the frame rate and quit.",
        "N");
    parser.addOption(benchmarkOpt);
    parser.process(app);
    int benchmarkFrames = 0;
    if (parser.isSet(benchmarkOpt)) {
        bool ok = false;
        benchmarkFrames = parser.value(benchmarkOpt).toInt(&ok);
        if (!ok || benchmarkFrames < 1) {
            std::fprintf(stderr, "plume: --benchmark-frames needs a whole number of frames >= 1\n");
            return 2;
        }
    }

    plume::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (benchmarkFrames > 0) {
        // No recovery offer: a measurement, not a session (and nothing to save at the end).
        // A scene that cannot be read ends it with the reader's message (no dialog to wait on).
        QString error;
        if (files.isEmpty()) {
            window.openDefaultScene();
        } else if (!window.openFile(files.front(), &error)) {
            std::fprintf(stderr, "plume: %s\n", qPrintable(error));
            return 2;
        }
        auto *meter = new plume::FrameRateMeter(&window, 10, benchmarkFrames);
        QObject::connect(meter, &plume::FrameRateMeter::finished, &app, [meter] {
            std::printf("%s\n", qPrintable(meter->report()));
            std::fflush(stdout);
            QCoreApplication::exit(0);
        });
        return app.exec();
    }
    // The file asked for opens at once (one that cannot be read shows the reader's message,
    // then the default scene opens); work a crash left unsaved is offered over it.
    window.start(files.value(0));
    // A first start shows what to try (until "Don't show again").
    window.showGettingStartedIfWanted();
    return app.exec();
}
