// SPDX-License-Identifier: Apache-2.0
// The properties panel's "Liquid texture" section (2D scenes; docs/liquid-textures.md): the
// image (typed, or picked with Browse...; empty switches the texture off), the reset period,
// the blend and the tiling. Every change is one undo step on the scene's simulation settings.
#include <ui/panels/propertiespanel.h>
#include <ui/panels/propertyhelp.h>

#include <core/render/liquidtexture.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/modelimport.h>

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QImageReader>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace plume {

void PropertiesPanel::buildLiquidTexture(QVBoxLayout *layout)
{
    auto *box = new QGroupBox("Liquid texture");
    box->setObjectName("liquidTextureSection");
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(box);
    auto texture = [this] { return mDocument->scene().simulation.liquidTexture; };
    auto setT = [this](auto edit) {
        return [this, edit](auto v) {
            SimulationSettings x = mDocument->scene().simulation;
            edit(x.liquidTexture, v);
            push<values::SceneSimulation>(-1, x);
        };
    };
    using T = LiquidTextureSettings;

    auto *row = new QWidget;
    auto *v = new QVBoxLayout(row);
    v->setContentsMargins(0, 0, 0, 0);
    auto *file = new QLineEdit;
    file->setObjectName("textureFile");
    file->setPlaceholderText("none (off)");
    auto *browse = new QPushButton("Browse...");
    browse->setObjectName("textureBrowse");
    v->addWidget(file);
    v->addWidget(browse, 0, Qt::AlignLeft);
    form->addRow("Image", row);
    row->setToolTip(propertyTip(form, "Image"));
    mRefreshers[std::size_t(mBuilding)].push_back([file, texture] {
        const QSignalBlocker block(file);
        file->setText(QString::fromStdString(texture().file));
    });
    connect(file, &QLineEdit::editingFinished, this, [this, file] {
        if (mRefreshing)
            return;
        const QString text = file->text().trimmed();
        if (text.isEmpty()) {
            SimulationSettings x = mDocument->scene().simulation;
            x.liquidTexture.file.clear();
            push<values::SceneSimulation>(-1, x);
            return;
        }
        const std::string resolved = resolveImagePath(text.toStdString(),
                                                      mDocument->scene().directory);
        setLiquidTextureFile(QString::fromStdString(resolved));
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const std::string current = resolveImagePath(
            mDocument->scene().simulation.liquidTexture.file, mDocument->scene().directory);
        const QString path = QFileDialog::getOpenFileName(
            this, "Liquid Texture Image", QFileInfo(QString::fromStdString(current)).absolutePath(),
            "Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;All files (*)");
        if (!path.isEmpty())
            setLiquidTextureFile(path);
    });
    // An odd period is rounded up: the sets reset half a period apart, on whole frames.
    addInt(
        form, "Period (frames)", [texture] { return texture().period; },
        setT([](T &t, int p) { t.period = p + p % 2; }), sim::kTexturePeriod);
    addChoice(
        form, "Blend", {"linear", "smooth"}, [texture] { return int(texture().blend); },
        setT([](T &t, int b) { t.blend = sim::TextureBlend(b); }));
    addDouble(
        form, "Tiling", [texture] { return texture().tiling; },
        setT([](T &t, double x) { t.tiling = float(x); }), liquidTextureParams::tiling);
}

bool PropertiesPanel::setLiquidTextureFile(const QString &path)
{
    QImageReader reader(path);
    if (!reader.canRead()) {
        QMessageBox box(QMessageBox::Critical, "Cannot use image",
                        path + ": " + reader.errorString(), QMessageBox::Ok, this);
        box.setObjectName("errorDialog");
        box.exec();
        return false;
    }
    SimulationSettings x = mDocument->scene().simulation;
    x.liquidTexture.file = scenePathOf(mDocument->scene(), path);
    push<values::SceneSimulation>(-1, x);
    return true;
}

} // namespace plume
