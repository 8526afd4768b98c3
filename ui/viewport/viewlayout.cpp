// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/viewlayout.h>

#include <ui/viewport/glprobe.h>
#include <ui/viewport/surfaceview.h>
#include <ui/viewport/viewport.h>
#include <ui/viewport/volumeview.h>

#include <ui/document/document.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>

namespace plume {

ViewLayout::ViewLayout(Viewport *main, QWidget *parent)
    : QWidget(parent)
    , mDocument(main->document())
{
    setObjectName("viewLayout");
    mGrid = new QGridLayout(this);
    mGrid->setContentsMargins(0, 0, 0, 0);
    mGrid->setSpacing(2);
    mPanels[0] = makePanel(0, main, 2);
    mPanels[1] = makePanel(1, new Viewport(mDocument, main->toolOptions(), this), 0);
    mPanels[2] = makePanel(2, new Viewport(mDocument, main->toolOptions(), this), 1);
    mVolumePanel = makeVolumePanel();
    mSurfacePanel = makeSurfacePanel();
    connect(main, &Viewport::displayChanged, this, &ViewLayout::mirrorMain);
    connect(mDocument, &Document::changed, this, [this](const ChangeEvent &e) {
        // The slice sliders follow the cells and the planes the box; boundaries move neither.
        using P = DomainSettings::Property;
        if (e.type == ChangeEvent::Type::Reset
            || (e.type == ChangeEvent::Type::Domain
                && !e.domain.within({P::Boundaries, P::Preview})))
            syncToScene(true);
        else if (e.type == ChangeEvent::Type::Simulation)
            syncToScene(false); // the scheme may have become ocean or stopped being one
    });
    mQuadAction = new QAction("&Quad View", this);
    mQuadAction->setObjectName("actionQuadView");
    mQuadAction->setCheckable(true);
    mQuadAction->setShortcut(QKeySequence("Ctrl+4"));
    connect(mQuadAction, &QAction::toggled, this, &ViewLayout::setQuad);
    mVolumeAction = new QAction("&Volume View", this);
    mVolumeAction->setObjectName("actionVolumeView");
    mVolumeAction->setCheckable(true);
    mVolumeAction->setShortcut(QKeySequence("Ctrl+3"));
    connect(mVolumeAction, &QAction::toggled, this, &ViewLayout::setVolumeShown);
    mSurfaceAction = new QAction("S&urface View", this);
    mSurfaceAction->setObjectName("actionSurfaceView");
    mSurfaceAction->setCheckable(true);
    mSurfaceAction->setShortcut(QKeySequence("Ctrl+5"));
    mSurfaceAction->setToolTip("Ocean scenes: the lit wave surface (OpenGL)");
    connect(mSurfaceAction, &QAction::toggled, this, &ViewLayout::setSurfaceShown);
    mirrorMain();
    syncToScene(true);
}

void ViewLayout::addMenuActions(QMenu *menu)
{
    menu->addAction(mQuadAction);
    menu->addAction(mVolumeAction);
    menu->addAction(mSurfaceAction);
}

QWidget *ViewLayout::makeSurfacePanel()
{
    auto *panel = new QWidget(this);
    auto *box = new QVBoxLayout(panel);
    box->setContentsMargins(0, 0, 0, 0);
    auto *message = new QLabel(panel);
    message->setObjectName("surfaceOffMessage");
    message->setAlignment(Qt::AlignCenter);
    message->setWordWrap(true);
    message->setMargin(16);
    auto off = [message](const QString &reason) {
        message->setText("The surface view is off: " + reason
                         + "\nView > Field still shows the ocean's fields.");
        message->show();
    };
    if (const QString reason = openGLUnavailableReason(); !reason.isEmpty()) {
        off(reason);
        box->addWidget(message, 1);
        return panel;
    }
    mSurface = new SurfaceView(panel);
    box->addWidget(mSurface, 1);
    box->addWidget(message);
    message->hide();
    connect(mSurface, &SurfaceView::unavailable, this, [this, off](const QString &reason) {
        off(reason);
        mSurface->hide();
    });
    return panel;
}

void ViewLayout::setSurfaceShown(bool surface)
{
    mSurfaceShown = surface;
    if (mSurfaceAction->isChecked() != surface)
        mSurfaceAction->setChecked(surface);
    relayout();
}

ViewLayout::Panel ViewLayout::makePanel(int index, Viewport *view, int axis)
{
    Panel p;
    p.view = view;
    p.widget = new QWidget(this);
    auto *box = new QVBoxLayout(p.widget);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    p.header = new QWidget(p.widget);
    auto *row = new QHBoxLayout(p.header);
    row->setContentsMargins(4, 2, 4, 2);
    p.axis = new QComboBox(p.header);
    p.axis->addItems({"X slice", "Y slice", "Z slice"});
    p.axis->setCurrentIndex(axis);
    p.slider = new QSlider(Qt::Horizontal, p.header);
    p.label = new QLabel(p.header);
    p.label->setMinimumWidth(70);
    p.slider->setMinimumWidth(60);
    row->addWidget(p.axis);
    row->addWidget(p.slider, 1);
    row->addWidget(p.label);
    box->addWidget(p.header);
    box->addWidget(view, 1);
    connect(p.axis, &QComboBox::currentIndexChanged, this, [this, index] {
        QSlider *s = mPanels[index].slider;
        const sim::Domain d = makeDomain(mDocument->scene().domain);
        const int n = d.cells[mPanels[index].axis->currentIndex()];
        s->blockSignals(true);
        s->setRange(0, n - 1);
        s->setValue(n / 2);
        s->blockSignals(false);
        applySlider(index);
    });
    connect(p.slider, &QSlider::valueChanged, this, [this, index] { applySlider(index); });
    return p;
}

QWidget *ViewLayout::makeVolumePanel()
{
    auto *panel = new QWidget(this);
    auto *box = new QVBoxLayout(panel);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    mVolumeOff = openGLUnavailableReason();
    mVolumeMessage = new QLabel(panel);
    mVolumeMessage->setObjectName("volumeOffMessage");
    mVolumeMessage->setAlignment(Qt::AlignCenter);
    mVolumeMessage->setWordWrap(true);
    mVolumeMessage->setMargin(16);
    if (!mVolumeOff.isEmpty()) {
        volumeFailed(mVolumeOff);
        box->addWidget(mVolumeMessage, 1);
        return panel;
    }
    auto *header = new QWidget(panel);
    auto *row = new QHBoxLayout(header);
    row->setContentsMargins(4, 2, 4, 2);
    mVolume = new VolumeView(mDocument, panel);
    auto *background = new QComboBox(header);
    background->addItems({"Dark", "Gradient", "Light"});
    background->setCurrentIndex(int(mVolume->background()));
    connect(background, &QComboBox::currentIndexChanged, this,
            [this](int n) { mVolume->setBackground(VolumeView::Background(n)); });
    row->addWidget(new QLabel("Background", header));
    row->addWidget(background);
    // The ray-march step (cells) and resolution of the interactive and still quality, in a popup.
    auto *qualityButton = new QToolButton(header);
    qualityButton->setText("Quality");
    qualityButton->setPopupMode(QToolButton::InstantPopup);
    auto *popup = new QMenu(qualityButton);
    auto *form = new QWidget(popup);
    auto *formLayout = new QFormLayout(form);
    auto *action = new QWidgetAction(popup);
    action->setDefaultWidget(form);
    popup->addAction(action);
    qualityButton->setMenu(popup);
    auto quality = [&](const QString &name, VolumeView::Quality q, bool still) {
        auto *step = new QDoubleSpinBox(form);
        step->setRange(0.1, 4.0);
        step->setSingleStep(0.25);
        step->setValue(q.stepCells);
        step->setToolTip(name + ": ray-march step in cells");
        auto *resolution = new QComboBox(form);
        resolution->setToolTip(
            name
            + ": the share of the view's pixels (each way) the volume is marched at. "
              "Auto: half when OpenGL runs on the CPU (no GPU), full otherwise.");
        const std::pair<const char *, float> scales[] = {{"Auto", 0.f},
                                                         {"Full", 1.f},
                                                         {"Half", 0.5f},
                                                         {"Quarter", 0.25f}};
        for (const auto &[label, value] : scales) {
            resolution->addItem(label, value);
            if (value == q.resolution)
                resolution->setCurrentIndex(resolution->count() - 1);
        }
        auto apply = [this, step, resolution, still] {
            const VolumeView::Quality v{float(step->value()), resolution->currentData().toFloat()};
            still ? mVolume->setStillQuality(v) : mVolume->setInteractiveQuality(v);
        };
        connect(step, &QDoubleSpinBox::valueChanged, this, apply);
        connect(resolution, &QComboBox::currentIndexChanged, this, apply);
        formLayout->addRow(name + " step (cells)", step);
        formLayout->addRow(name + " resolution", resolution);
    };
    quality("Interactive", mVolume->interactiveQuality(), false);
    quality("Still", mVolume->stillQuality(), true);
    row->addWidget(qualityButton);
    // Level surface: the density's iso-surface (the liquid for SPH scenes) instead of the smoke.
    auto *level = new QCheckBox("Level surface", header);
    level->setObjectName("levelSurface");
    level->setToolTip("Draw the surface where the density equals the iso value (for liquids: "
                      "the liquid) instead of the smoke");
    auto *iso = new QDoubleSpinBox(header);
    iso->setObjectName("levelSurfaceIso");
    iso->setRange(0.001, 1000.0);
    iso->setDecimals(3);
    iso->setSingleStep(0.05);
    iso->setValue(mVolume->levelSurface().iso());
    iso->setToolTip("Iso value: the density on the surface (0.5 for liquids)");
    iso->setEnabled(false);
    connect(level, &QCheckBox::toggled, this, [this, iso](bool on) {
        iso->setEnabled(on);
        mVolume->setLevelSurface(on);
    });
    connect(iso, &QDoubleSpinBox::valueChanged, this,
            [this](double v) { mVolume->setLevelSurfaceIso(float(v)); });
    row->addWidget(level);
    row->addWidget(new QLabel("Iso", header));
    row->addWidget(iso);
    row->addStretch(1);
    box->addWidget(header);
    box->addWidget(mVolume, 1);
    box->addWidget(mVolumeMessage);
    mVolumeMessage->hide();
    connect(mVolume, &VolumeView::unavailable, this, &ViewLayout::volumeFailed);
    return panel;
}

void ViewLayout::volumeFailed(const QString &reason)
{
    mVolumeOff = reason;
    mVolumeMessage->setText("The volume view is off: " + reason + "\nThe slice views still work.");
    mVolumeMessage->show();
    if (mVolume)
        mVolume->hide();
}

// The other slice views show what the main one shows and share its tool.
void ViewLayout::mirrorMain()
{
    const Viewport *main = mPanels[0].view;
    for (int n = 1; n < 3; ++n) {
        Viewport *v = mPanels[n].view;
        if (v->field() != main->field())
            v->setField(main->field());
        for (Viewport::Overlay o :
             {Viewport::Arrows, Viewport::Grid, Viewport::Obstacles, Viewport::Outlines,
              Viewport::Particles, Viewport::Streamlines, Viewport::Legend})
            if (v->overlay(o) != main->overlay(o))
                v->setOverlay(o, main->overlay(o));
        if (v->tool() != main->tool())
            v->setTool(main->tool());
    }
}

// Slider ranges follow the domain's cells; a new scene or domain puts every slice in the middle.
void ViewLayout::syncToScene(bool reset)
{
    const bool threeD = mDocument->scene().domain.dimension == Dimension::ThreeD;
    const bool changed = threeD != mThreeD;
    mThreeD = threeD;
    mOcean = mDocument->scene().simulation.params.scheme == sim::Scheme::Ocean;
    mSurfaceAction->setEnabled(mOcean);
    if (reset || changed)
        for (int n = 0; n < 3; ++n) {
            Panel &p = mPanels[n];
            const sim::Domain d = makeDomain(mDocument->scene().domain);
            const int cells = d.cells[p.axis->currentIndex()];
            p.slider->blockSignals(true);
            p.slider->setRange(0, cells - 1);
            p.slider->setValue(cells / 2);
            p.slider->blockSignals(false);
            p.header->setVisible(threeD);
            applySlider(n);
            if (n > 0)
                p.view->fitToView();
        }
    mQuadAction->setEnabled(threeD);
    mVolumeAction->setEnabled(threeD);
    relayout();
}

void ViewLayout::setSlice(int view, int axis, int layer)
{
    Panel &p = mPanels[view];
    p.axis->setCurrentIndex(axis); // resets the slider to the middle when the axis changes
    p.slider->setValue(layer);
    applySlider(view);
}

void ViewLayout::applySlider(int n)
{
    Panel &p = mPanels[n];
    const sim::Domain d = makeDomain(mDocument->scene().domain);
    SlicePlane plane;
    plane.axis = p.axis->currentIndex();
    const int layer = std::clamp(p.slider->value(), 0, d.cells[plane.axis] - 1);
    plane.position = d.origin[plane.axis] + (float(layer) + 0.5f) * d.cellSize;
    p.label->setText(QString("%1 = %2")
                         .arg(QString(axisName(plane.axis)).toLower())
                         .arg(plane.position, 0, 'f', 3));
    p.view->setSlicePlane(plane);
}

void ViewLayout::setQuad(bool quad)
{
    mQuad = quad;
    if (mQuadAction->isChecked() != quad)
        mQuadAction->setChecked(quad);
    relayout();
}

void ViewLayout::setVolumeShown(bool volume)
{
    mVolumeShown = volume;
    if (mVolumeAction->isChecked() != volume)
        mVolumeAction->setChecked(volume);
    relayout();
}

void ViewLayout::relayout()
{
    QWidget *all[5] = {mPanels[0].widget, mVolumePanel, mPanels[1].widget, mPanels[2].widget,
                       mSurfacePanel};
    for (QWidget *w : all)
        mGrid->removeWidget(w);
    const bool quad = mQuad && mThreeD;
    mSurfacePanel->hide();
    for (int n = 0; n < 2; ++n) { // equal quarters, or all of it for the single view
        mGrid->setColumnStretch(n, quad || n == 0 ? 1 : 0);
        mGrid->setRowStretch(n, quad || n == 0 ? 1 : 0);
    }
    if (quad) {
        for (int n = 0; n < 4; ++n) {
            mGrid->addWidget(all[n], n / 2, n % 2);
            all[n]->show();
        }
        return;
    }
    QWidget *single = mVolumeShown && mThreeD ? mVolumePanel : mPanels[0].widget;
    if (mSurfaceShown && mOcean)
        single = mSurfacePanel;
    for (QWidget *w : all)
        w->setVisible(w == single);
    mGrid->addWidget(single, 0, 0);
}

void ViewLayout::showFrame(const FramePtr &frame)
{
    mPanels[1].view->showFrame(frame);
    mPanels[2].view->showFrame(frame);
    if (mVolume)
        mVolume->showFrame(frame);
    if (mSurface)
        mSurface->showFrame(frame);
}

} // namespace plume
