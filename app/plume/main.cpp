// plume: the authoring window. `plume [scene.plume]` opens the scene, or the default smoke
// plume (resources/scenes/plume-2d.plume, embedded), and starts simulating it.
#include <mainwindow/mainwindow.h>
#include <viewport/glprobe.h>

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    // The volume view's OpenGL 3.3 core format, asked for before the application exists.
    QSurfaceFormat::setDefaultFormat(plume::volumeSurfaceFormat());
    QApplication app(argc, argv);
    QApplication::setApplicationName("Plume");
    QApplication::setOrganizationName("Plume");
    QApplication::setApplicationVersion(PLUME_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Plume: grid-based fluid effects authoring.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("scene", "A .plume scene file to open.", "[scene.plume]");
    parser.process(app);

    plume::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    // A file that cannot be read shows the reader's message, then the default scene opens.
    if (files.isEmpty() || !window.openFile(files.front()))
        window.openDefaultScene();
    return app.exec();
}
