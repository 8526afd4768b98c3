// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/templatedialog.h>

#include <core/io/scenereader.h>

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace plume {

namespace {

constexpr int kThumbnail = 160; ///< pixels on the longer side (scripts/make-thumbnails)

QJsonObject templateIndex()
{
    QFile file(":/scenes/templates.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString summaryOf(const Scene &scene)
{
    const sim::Int3 c = domainCells(scene.domain);
    const bool threeD = scene.domain.dimension == Dimension::ThreeD;
    const QString grid = threeD ? QStringLiteral("%1 x %2 x %3").arg(c.x).arg(c.y).arg(c.z)
                                : QStringLiteral("%1 x %2").arg(c.x).arg(c.y);
    const int items = int(scene.items.size());
    return QStringLiteral("%1, %2 cells, %3 scheme, %4 item%5")
        .arg(threeD ? "3D" : "2D", grid, sim::toString(scene.simulation.params.scheme))
        .arg(items)
        .arg(items == 1 ? "" : "s");
}

/// The thumbnail over the viewport's dark background (the images keep their alpha), centred
/// in a square so that wide and tall scenes line up.
QIcon thumbnailIcon(const QString &file)
{
    QPixmap square(kThumbnail, kThumbnail);
    square.fill(QColor(24, 24, 28));
    const QImage image(file);
    if (!image.isNull()) {
        QPainter painter(&square);
        const QImage fitted = image.scaled(kThumbnail, kThumbnail, Qt::KeepAspectRatio,
                                           Qt::SmoothTransformation);
        painter.drawImage((kThumbnail - fitted.width()) / 2, (kThumbnail - fitted.height()) / 2,
                          fitted);
    }
    return QIcon(square);
}

} // namespace

QList<SceneTemplate> sceneTemplates(const QStringList &scenes)
{
    const QJsonObject index = templateIndex();
    const QJsonObject descriptions = index.value("descriptions").toObject();
    QStringList order;
    for (const QJsonValue &v : index.value("order").toArray())
        order << v.toString();
    QList<SceneTemplate> out;
    for (const QString &path : scenes) {
        const SceneReadResult r = readSceneFile(path);
        if (!r.ok)
            continue;
        SceneTemplate t;
        t.path = path;
        t.name = QFileInfo(path).completeBaseName();
        t.description = descriptions.value(t.name).toString();
        t.summary = summaryOf(r.scene);
        t.thumbnail = ":/scenes/thumbnails/" + t.name + ".png";
        out << t;
    }
    const auto rank = [&](const SceneTemplate &t) {
        const qsizetype at = order.indexOf(t.name);
        return at < 0 ? order.size() : at;
    };
    std::stable_sort(out.begin(), out.end(), [&](const SceneTemplate &a, const SceneTemplate &b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a.name < b.name;
    });
    return out;
}

TemplateDialog::TemplateDialog(const QStringList &scenes, QWidget *parent)
    : QDialog(parent)
    , mTemplates(sceneTemplates(scenes))
{
    setObjectName("templateDialog");
    setWindowTitle("New from Template");
    mList = new QListWidget;
    mList->setObjectName("templateList");
    mList->setViewMode(QListView::IconMode);
    mList->setIconSize({kThumbnail, kThumbnail});
    mList->setGridSize({kThumbnail + 24, kThumbnail + 40});
    mList->setResizeMode(QListView::Adjust);
    mList->setMovement(QListView::Static);
    mList->setWordWrap(true);
    for (const SceneTemplate &t : mTemplates) {
        auto *item = new QListWidgetItem(thumbnailIcon(t.thumbnail), t.name);
        item->setToolTip(t.description.isEmpty() ? t.summary : t.description + "\n" + t.summary);
        mList->addItem(item);
    }
    mDetails = new QLabel;
    mDetails->setObjectName("templateDetails");
    mDetails->setWordWrap(true);
    mDetails->setMinimumHeight(mDetails->fontMetrics().lineSpacing() * 3);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText("Create");
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mList, &QListWidget::currentRowChanged, this, &TemplateDialog::showDetails);
    connect(mList, &QListWidget::itemActivated, this, &QDialog::accept);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel("Start from one of these scenes; it opens as a new, unsaved "
                                 "scene."));
    layout->addWidget(mList, 1);
    layout->addWidget(mDetails);
    layout->addWidget(buttons);
    if (!mTemplates.isEmpty())
        mList->setCurrentRow(0);
    resize(5 * (kThumbnail + 24) + 60, 2 * (kThumbnail + 40) + 190);
}

QString TemplateDialog::selectedScene() const
{
    const int row = mList->currentRow();
    return row >= 0 && row < mTemplates.size() ? mTemplates[row].path : QString();
}

void TemplateDialog::showDetails()
{
    const int row = mList->currentRow();
    if (row < 0 || row >= mTemplates.size()) {
        mDetails->clear();
        return;
    }
    const SceneTemplate &t = mTemplates[row];
    mDetails->setText(
        QStringLiteral("<b>%1</b>: %2<br><i>%3</i>")
            .arg(t.name.toHtmlEscaped(), t.description.toHtmlEscaped(), t.summary.toHtmlEscaped()));
}

} // namespace plume
