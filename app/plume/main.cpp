// plume: the authoring window. For now it opens on the built-in 2D smoke plume, running.
#include <mainwindow.h>
#include <scene/builtinscene.h>

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("Plume");
    QApplication::setOrganizationName("Plume");

    QCommandLineParser parser;
    parser.setApplicationDescription("Plume: grid-based fluid effects authoring.");
    parser.addHelpOption();
    const QCommandLineOption resOpt("resolution", "Cells along each axis of the built-in scene.",
                                    "N", "192");
    parser.addOption(resOpt);
    parser.process(app);

    plume::BuiltinOptions options;
    bool ok = false;
    options.resolution = parser.value(resOpt).toInt(&ok);
    plume::SceneSetup scene;
    std::string error;
    if (!ok || !plume::makeBuiltinScene("plume", options, scene, &error)) {
        std::fprintf(stderr, "plume: %s\n",
                     ok ? error.c_str() : "--resolution must be an integer");
        return 2;
    }
    plume::MainWindow window;
    window.show();
    window.start(scene);
    return app.exec();
}
