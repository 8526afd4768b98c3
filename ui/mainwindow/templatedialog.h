// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QLabel;
class QListWidget;

namespace plume {

/// One template: an example scene shipped with Plume (embedded, ui/plume.qrc).
struct SceneTemplate
{
    QString path;        ///< ":/scenes/<name>.plume"
    QString name;        ///< the file's base name
    QString description; ///< resources/scenes/templates.json, or empty
    QString summary;     ///< "3D, 64 x 96 x 64 cells, smoke scheme, 4 items"
    QString thumbnail;   ///< ":/scenes/thumbnails/<name>.png" (may not exist)
};

/// The example scenes as templates, in the order templates.json gives (then by name), each
/// with its description and a summary read from the scene. A scene that cannot be read is left
/// out.
QList<SceneTemplate> sceneTemplates(const QStringList &scenes);

/// File > New from Template: the templates as thumbnails with their names; the one selected
/// shows its description and summary. Accepting (double-click, Enter, Create) gives the scene
/// to open as a new, unsaved scene.
class TemplateDialog : public QDialog
{
    Q_OBJECT

public:
    explicit TemplateDialog(const QStringList &scenes, QWidget *parent = nullptr);

    /// The chosen template's scene file, or empty.
    QString selectedScene() const;
    QListWidget *list() const { return mList; }

private:
    void showDetails();

    QList<SceneTemplate> mTemplates;
    QListWidget *mList;
    QLabel *mDetails;
};

} // namespace plume
