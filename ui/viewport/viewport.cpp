// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/viewport.h>

#include <ui/viewport/sliceframe.h>

#include <ui/document/animationstate.h>
#include <ui/document/document.h>
#include <ui/tools/tool.h>
#include <ui/tools/tooloptions.h>

#include <core/scene/meshfile.h>
#include <core/scene/shapecoverage.h>
#include <core/scene/texturelook.h>

#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QTabletEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace plume {

namespace {

const QColor kBackground(24, 26, 30);
constexpr double kHandleRadius = 5.0;
constexpr double kRotateHandleDistance = 22.0; ///< pixels above the outline's top

sim::Domain sceneDomain(const Scene &scene) { return makeDomain(scene.domain); }

/// Whether a pointer at `pos` grabs the handle drawn at `handle`.
bool nearHandle(QPointF pos, QPointF handle)
{
    const QPointF d = pos - handle;
    return std::hypot(d.x(), d.y()) <= kHandleRadius + 2.0;
}

} // namespace

Viewport::Viewport(Document *document, ToolOptions *options, QWidget *parent)
    : QWidget(parent)
    , mDocument(document)
    , mOptions(options)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 200);
    setAcceptDrops(true);
    connect(document, &Document::changed, this, [this](const ChangeEvent &e) {
        // The view draws the domain and the items over the frame.
        using T = ChangeEvent::Type;
        if (e.type == T::Exports && mField == ViewField::Dye && mHasSlice && mSlice.hasFlame()) {
            rebuildPicture(); // fire glows with the export look's emission settings
            update();
        }
        if (e.type == T::Simulation && mField == ViewField::LiquidTexture
            && e.simulation.has(SimulationSettings::Property::TextureLook)) {
            rebuildPicture(); // the texture's image, blend or tiling
            update();
        }
        if (e.type != T::SceneName && e.type != T::Simulation && e.type != T::Exports)
            update();
    });
    connect(document, &Document::selectionChanged, this, [this] { update(); });
    connect(document->animation(), &AnimationState::changedValuesChanged, this,
            [this] { update(); });
}

QColor Viewport::kindColor(ItemKind kind)
{
    switch (kind) {
    case ItemKind::Emitter: return QColor(255, 170, 60);
    case ItemKind::Obstacle: return QColor(150, 190, 255);
    case ItemKind::ForceField: return QColor(110, 230, 140);
    }
    return Qt::white;
}

void Viewport::setTool(Tool *tool)
{
    if (mTool)
        mTool->cancel();
    mTool = tool;
    mToolDrag = false;
    setCursor(tool && tool->name() != "Select" ? Qt::CrossCursor : Qt::ArrowCursor);
    update();
    Q_EMIT displayChanged();
}

void Viewport::setField(ViewField field)
{
    mField = field;
    rebuildPicture();
    update();
    Q_EMIT displayChanged();
}

void Viewport::setOverlay(Overlay o, bool on)
{
    const bool was = overlay(o);
    mOverlays = on ? (mOverlays | o) : (mOverlays & ~o);
    if (o == Streamlines && was != on)
        rebuildStreamlines();
    update();
    Q_EMIT displayChanged();
}

void Viewport::setSlicePlane(SlicePlane plane)
{
    const bool axisChanged = plane.axis != mPlane.axis;
    mPlane = plane;
    rebuildPicture();
    rebuildStreamlines();
    if (axisChanged && mAutoFit)
        fitToView();
    update();
    Q_EMIT slicePlaneChanged();
}

bool Viewport::threeD() const { return mDocument->scene().domain.dimension == Dimension::ThreeD; }

bool Viewport::ownsTool() const { return mTool && mTool->host() == this; }

void Viewport::showFrame(const FramePtr &frame)
{
    mFrame = frame;
    rebuildPicture();
    rebuildStreamlines();
    update();
}

void Viewport::rebuildStreamlines()
{
    mStreamlines.clear();
    if (!overlay(Streamlines) || !mHasSlice)
        return;
    const sim::ScalarGrid &u = mSlice.field(DisplayField::VelocityX);
    const sim::ScalarGrid &v = mSlice.field(DisplayField::VelocityY);
    mStreamlines = computeStreamlines(u, v, &mSlice.solids, mSlice.domain,
                                      viewStreamlineOptions(mSlice.domain.cells));
}

std::optional<LegendProbe> Viewport::pointerProbe() const
{
    if (!mPointer || !mHasSlice)
        return std::nullopt;
    const sim::Vec3 w = toWorld(*mPointer);
    return probeField(mSlice, mField, threeD() ? mPlane.toPlane(w) : w);
}

void Viewport::rebuildPicture()
{
    mHasSlice = mFrame && sliceFrame(*mFrame, threeD() ? mPlane : SlicePlane{}, mSlice);
    const Scene &scene = mDocument->scene();
    const FireLook fire{scene.exports.render, scene.simulation.params.ambientTemperature};
    if (mField == ViewField::LiquidTexture) {
        // Decoded again only when the file or the scene's folder changes.
        const LiquidTextureSettings &t = scene.simulation.liquidTexture;
        const std::string source = t.file + "\n" + scene.directory;
        if (source != mTextureSource) {
            auto look = loadLiquidTextureLook(t, scene.directory);
            mTexture = look ? look.take() : LiquidTextureLook{};
            mTextureSource = source;
        }
        mTexture.period = t.period;
        mTexture.blend = t.blend;
        mTexture.tiling = t.tiling;
    }
    mPicture = mHasSlice ? renderField(mSlice, mField, fire, &mTexture) : FieldPicture{};
}

// The domain's u-v rectangle (z: one cell at the plane).
sim::Domain Viewport::planeDomain() const
{
    sim::Domain d = sceneDomain(mDocument->scene());
    if (!threeD())
        return d;
    sim::Domain p = d;
    p.cells = {d.cells[mPlane.u()], d.cells[mPlane.v()], 1};
    p.origin = {d.origin[mPlane.u()], d.origin[mPlane.v()], 0.f};
    return p;
}

void Viewport::fitToView()
{
    const sim::Domain d = planeDomain();
    const sim::Vec3 e = d.extent();
    mCentre = d.origin + e * 0.5f;
    mZoom = 0.92
            * std::min(width() / std::max(double(e.x), 1e-6),
                       height() / std::max(double(e.y), 1e-6));
    mAutoFit = true;
    update();
}

QPointF Viewport::planeToWidget(sim::Vec3 q) const
{
    return {width() * 0.5 + (q.x - mCentre.x) * mZoom, height() * 0.5 - (q.y - mCentre.y) * mZoom};
}

QPointF Viewport::toWidget(sim::Vec3 w) const
{
    return planeToWidget(threeD() ? mPlane.toPlane(w) : w);
}

sim::Vec3 Viewport::toWorld(QPointF p) const
{
    const sim::Vec3 q{float(mCentre.x + (p.x() - width() * 0.5) / mZoom),
                      float(mCentre.y - (p.y() - height() * 0.5) / mZoom), 0.f};
    if (threeD())
        return mPlane.toWorld(q);
    const sim::Domain d = sceneDomain(mDocument->scene());
    return {q.x, q.y, d.origin.z + 0.5f * d.extent().z};
}

QRectF Viewport::domainRect() const
{
    const sim::Domain d = planeDomain();
    return QRectF(planeToWidget(d.origin + sim::Vec3{0.f, d.extent().y, 0.f}),
                  planeToWidget(d.origin + sim::Vec3{d.extent().x, 0.f, 0.f}));
}

Placement Viewport::itemPlacement(const Item &item) const
{
    Placement placement = item.placementAt(frameNumber());
    // A placement changed in the properties and not keyed yet shows where the user put it.
    const std::vector<Item> &items = mDocument->scene().items;
    const AnimationState *animation = mDocument->animation();
    if (items.empty() || &item < items.data() || &item >= items.data() + items.size())
        return placement;
    const int index = int(&item - items.data());
    for (auto [property, value] : {std::pair{AnimProperty::Offset, &placement.offset},
                                   {AnimProperty::Rotation, &placement.rotation},
                                   {AnimProperty::Scale, &placement.scale}})
        if (animation->isChanged(index, property))
            *value = animation->shownValue(index, property);
    return placement;
}

PlaneSection Viewport::section(const Shape &shape, const Placement &placement) const
{
    return planeSection(shape, placement, sectionContext(mDocument->scene(), mPlane));
}

QTransform Viewport::planeToWidgetTransform() const
{
    return QTransform(mZoom, 0.0, 0.0, -mZoom, width() * 0.5 - mCentre.x * mZoom,
                      height() * 0.5 + mCentre.y * mZoom);
}

QPainterPath Viewport::shapePath(const Shape &shape, const Placement &placement) const
{
    return section(shape, placement).path(planeToWidgetTransform());
}

QRectF Viewport::planeBounds(const Shape &shape, const Placement &placement) const
{
    return section(shape, placement).bounds();
}

int Viewport::itemAt(QPointF pos) const
{
    const Scene &scene = mDocument->scene();
    const sim::Vec3 w = toWorld(pos);
    const sim::Vec3 q = threeD() ? mPlane.toPlane(w) : w;
    const float slack = float(3.0 / mZoom);
    const SectionContext context = sectionContext(scene, mPlane);
    for (int n = int(scene.items.size()) - 1; n >= 0; --n) {
        const Item &item = scene.items[std::size_t(n)];
        if (item.hidden || item.locked)
            continue;
        if (planeSection(item.shape, itemPlacement(item), context).contains(q, slack))
            return n;
    }
    return -1;
}

std::vector<int> Viewport::itemsTouching(QRectF rect) const
{
    const Scene &scene = mDocument->scene();
    std::vector<int> out;
    for (int n = 0; n < int(scene.items.size()); ++n) {
        const Item &item = scene.items[std::size_t(n)];
        if (item.hidden || item.locked || item.shape.type == ShapeType::Everywhere)
            continue;
        const QRectF b = planeBounds(item.shape, itemPlacement(item));
        if (b.isNull())
            continue;
        // Plane y up: the rectangle's bottom() is the highest y.
        const QRectF widget = QRectF(planeToWidget({float(b.left()), float(b.bottom()), 0.f}),
                                     planeToWidget({float(b.right()), float(b.top()), 0.f}))
                                  .normalized();
        if (widget.intersects(rect) || rect.contains(widget.topLeft()))
            out.push_back(n);
    }
    return out;
}

QPointF Viewport::scaleHandle(int index) const
{
    const Item &item = mDocument->scene().items[std::size_t(index)];
    const QRectF b = planeBounds(item.shape, itemPlacement(item));
    // Plane y up: the rectangle's bottom() is the highest y.
    return planeToWidget({float(b.right()), float(b.bottom()), 0.f});
}

QPointF Viewport::rotateHandle(int index) const
{
    const Item &item = mDocument->scene().items[std::size_t(index)];
    const QRectF b = planeBounds(item.shape, itemPlacement(item));
    return planeToWidget({float(b.center().x()), float(b.bottom()), 0.f})
           - QPointF(0.0, kRotateHandleDistance);
}

bool Viewport::hasHandles(int index) const
{
    if (index < 0 || index >= int(mDocument->scene().items.size()))
        return false;
    const Item &item = mDocument->scene().items[std::size_t(index)];
    return item.shape.type != ShapeType::Everywhere
           && !planeBounds(item.shape, itemPlacement(item)).isNull();
}

bool Viewport::scaleHandleHit(int index, QPointF pos) const
{
    return hasHandles(index) && nearHandle(pos, scaleHandle(index));
}

bool Viewport::rotateHandleHit(int index, QPointF pos) const
{
    return hasHandles(index) && nearHandle(pos, rotateHandle(index));
}

void Viewport::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), kBackground);
    const QRectF domain = domainRect();
    if (!mPicture.image.isNull()) {
        p.setRenderHint(QPainter::SmoothPixmapTransform, mZoom < 4.0 * mPicture.image.width());
        p.drawImage(domain, mPicture.image);
    }
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(90, 95, 105), 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(domain);
    if (!mHasSlice && mFrame)
        paintNoSlice(p);
    if (overlay(Grid))
        paintGrid(p);
    if (overlay(Particles))
        paintParticles(p);
    if (overlay(Streamlines) && mHasSlice)
        paintStreamlines(p, mStreamlines, planeToWidgetTransform(),
                         mSlice.maximum[int(DisplayField::Speed)]);
    if (overlay(Arrows))
        paintArrows(p);
    paintItems(p);
    if (ownsTool())
        mTool->paint(p);
    if (overlay(Legend) && mPicture.legend && !mPicture.image.isNull())
        paintLegend(p, rect(), mPicture, mField, pointerProbe());
    if (threeD())
        paintPlaneLabel(p);
}

void Viewport::paintNoSlice(QPainter &p) const
{
    p.setPen(QColor(200, 200, 200));
    p.drawText(rect().adjusted(12, 12, -12, -12),
               Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap,
               "This frame has no 3D data: only its middle Z slice can be shown.");
}

void Viewport::paintGrid(QPainter &p) const
{
    const sim::Domain d = planeDomain();
    const auto toWidget = [this](sim::Vec3 q) { return planeToWidget(q); };
    const double cellPx = d.cellSize * mZoom;
    const int every = std::max(1, int(std::ceil(6.0 / cellPx)));
    p.setPen(QPen(QColor(255, 255, 255, 28), 0.0));
    for (int i = 0; i <= d.cells.x; i += every) {
        const sim::Vec3 a = d.toWorld({float(i), 0.f, 0.f});
        p.drawLine(toWidget(a), toWidget(a + sim::Vec3{0.f, d.extent().y, 0.f}));
    }
    for (int j = 0; j <= d.cells.y; j += every) {
        const sim::Vec3 a = d.toWorld({0.f, float(j), 0.f});
        p.drawLine(toWidget(a), toWidget(a + sim::Vec3{d.extent().x, 0.f, 0.f}));
    }
}

// Arrows about 24 px apart, the fastest one as long as the spacing.
void Viewport::paintArrows(QPainter &p) const
{
    if (!mHasSlice)
        return;
    const auto toWidget = [this](sim::Vec3 q) { return planeToWidget(q); };
    const FrameData *frame = &mSlice;
    const sim::ScalarGrid &u = frame->field(DisplayField::VelocityX);
    const sim::ScalarGrid &v = frame->field(DisplayField::VelocityY);
    const sim::Domain &d = frame->domain;
    if (u.count() == 0 || u.size().x != d.cells.x)
        return;
    const double cellPx = d.cellSize * mZoom;
    const int every = std::max(1, int(std::round(24.0 / cellPx)));
    const float maxSpeed = std::max(frame->maximum[int(DisplayField::Speed)], 1e-6f);
    const double scale = every * cellPx / maxSpeed;
    p.setPen(QPen(QColor(120, 220, 255, 200), 1.0));
    for (int j = every / 2; j < d.cells.y; j += every)
        for (int i = every / 2; i < d.cells.x; i += every) {
            const QPointF a = toWidget(d.cellCentre(i, j, 0));
            const QPointF dir(u(i, j, 0) * scale, -v(i, j, 0) * scale);
            const double len = std::hypot(dir.x(), dir.y());
            if (len < 1.0)
                continue;
            const QPointF b = a + dir;
            p.drawLine(a, b);
            const QPointF unit = dir / len;
            const QPointF side(-unit.y(), unit.x());
            const double head = std::min(4.0, 0.35 * len);
            p.drawLine(b, b - unit * head + side * head * 0.6);
            p.drawLine(b, b - unit * head - side * head * 0.6);
        }
}

// Points from deep blue (at rest) to near white (the frame's fastest), in 16 colour buckets so
// that each bucket is one drawPoints call.
void Viewport::paintParticles(QPainter &p) const
{
    if (!mFrame || mFrame->particles.empty())
        return;
    const FrameData &f = *mFrame;
    constexpr int kBuckets = 16;
    std::vector<QPointF> points[kBuckets];
    const float fastest = std::max(f.maxParticleSpeed, 1e-6f);
    const bool slice = threeD();
    const float halfCell = 0.5f * f.domain.cellSize;
    for (std::size_t n = 0; n < f.particleCount(); ++n) {
        const float *q = f.particles.data() + 4 * n;
        const sim::Vec3 world{q[0], q[1], q[2]};
        if (slice && std::abs(world[mPlane.axis] - mPlane.position) > halfCell)
            continue;
        const int bucket = std::min(kBuckets - 1, int(q[3] / fastest * kBuckets));
        points[bucket].push_back(toWidget(world));
    }
    const double size = std::clamp(2.0 * f.particleRadius * mZoom, 2.0, 8.0);
    for (int b = 0; b < kBuckets; ++b) {
        if (points[b].empty())
            continue;
        const double t = (b + 0.5) / kBuckets;
        const QColor c(int(30 + 195 * t), int(90 + 155 * t), int(200 + 55 * t));
        p.setPen(QPen(c, size, Qt::SolidLine, Qt::RoundCap));
        p.drawPoints(points[b].data(), int(points[b].size()));
    }
}

void Viewport::paintItems(QPainter &p) const
{
    const Scene &scene = mDocument->scene();
    const int current = mDocument->selectedItem();
    for (int n = 0; n < int(scene.items.size()); ++n) {
        const Item &item = scene.items[std::size_t(n)];
        if (item.hidden)
            continue;
        const bool isSelected = mDocument->isSelected(n);
        const bool obstacle = item.kind == ItemKind::Obstacle;
        if (!isSelected && !overlay(Outlines) && !(obstacle && overlay(Obstacles)))
            continue;
        if (item.shape.type == ShapeType::Everywhere && !isSelected)
            continue;
        const QPainterPath path = shapePath(item.shape, itemPlacement(item));
        if (path.isEmpty())
            continue;
        QColor colour = kindColor(item.kind);
        if (!item.enabled)
            colour = QColor(140, 140, 140);
        QColor fill = colour;
        fill.setAlpha(obstacle && overlay(Obstacles) ? 60 : 0);
        // Selected items get a light halo under their outline; the current one its handles too.
        if (isSelected) {
            p.setPen(QPen(QColor(255, 255, 255, n == current ? 150 : 90), 5.0));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
        QPen pen(colour, isSelected ? 2.0 : 1.0, item.enabled ? Qt::SolidLine : Qt::DashLine);
        p.setPen(pen);
        p.setBrush(fill.alpha() ? QBrush(fill) : QBrush(Qt::NoBrush));
        p.drawPath(path);
        if (n == current && !item.locked && item.shape.type != ShapeType::Everywhere)
            paintHandles(p, n);
    }
}

// The selection's bounds, its scale handle (top right), its rotate handle (above the top's
// middle) and the pivot it rotates and scales about (a cross).
void Viewport::paintHandles(QPainter &p, int index) const
{
    const Item &item = mDocument->scene().items[std::size_t(index)];
    const Placement placement = itemPlacement(item);
    const QRectF b = planeBounds(item.shape, placement);
    const QPointF topMiddle = planeToWidget({float(b.center().x()), float(b.bottom()), 0.f});
    p.setPen(QPen(QColor(255, 255, 255, 150), 1.0, Qt::DotLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(planeToWidget({float(b.left()), float(b.bottom()), 0.f}),
                      planeToWidget({float(b.right()), float(b.top()), 0.f})));
    p.drawLine(topMiddle, rotateHandle(index));
    const QPointF pivot = toWidget(shapePivot(item.shape) + placement.offset);
    p.setPen(QPen(QColor(255, 255, 255, 200), 1.0));
    p.drawLine(pivot - QPointF(4, 0), pivot + QPointF(4, 0));
    p.drawLine(pivot - QPointF(0, 4), pivot + QPointF(0, 4));
    p.setPen(QPen(Qt::black, 1.0));
    p.setBrush(Qt::white);
    p.drawEllipse(scaleHandle(index), kHandleRadius, kHandleRadius);
    p.setBrush(QColor(120, 230, 150));
    p.drawEllipse(rotateHandle(index), kHandleRadius, kHandleRadius);
}

// Which plane this is, and the world axes along the view's right and up.
void Viewport::paintPlaneLabel(QPainter &p) const
{
    const QString text = QString("%1 slice  %2 = %3   (right: %4, up: %5)")
                             .arg(axisName(mPlane.axis), QString(axisName(mPlane.axis)).toLower())
                             .arg(mPlane.position, 0, 'f', 3)
                             .arg(axisName(mPlane.u()), axisName(mPlane.v()));
    p.setPen(QColor(210, 210, 210));
    p.drawText(QPointF(10, 10 + p.fontMetrics().ascent()), text);
}

void Viewport::resizeEvent(QResizeEvent *)
{
    if (mAutoFit)
        fitToView();
}

namespace {

ToolEvent makeToolEvent(const Viewport &v, QPointF pos, float pressure, bool tablet,
                        Qt::KeyboardModifiers modifiers)
{
    ToolEvent e;
    e.pos = pos;
    e.world = v.toWorld(pos);
    e.pressure = std::clamp(pressure, 0.f, 1.f);
    e.tablet = tablet;
    e.modifiers = modifiers;
    return e;
}

} // namespace

void Viewport::mousePressEvent(QMouseEvent *event)
{
    setFocus();
    if (event->button() == Qt::MiddleButton) {
        mPanning = true;
        mLastPan = event->position();
        return;
    }
    if (event->button() == Qt::LeftButton && mTool) {
        mToolDrag = true;
        mTool->setHost(this);
        mTool->press(makeToolEvent(*this, event->position(), 1.f, false, event->modifiers()));
        update();
    }
}

void Viewport::leaveEvent(QEvent *event)
{
    mPointer.reset();
    if (overlay(Legend))
        update();
    QWidget::leaveEvent(event);
}

void Viewport::mouseMoveEvent(QMouseEvent *event)
{
    mPointer = event->position();
    if (overlay(Legend) && mPicture.legend)
        update(); // the value under the pointer
    const sim::Vec3 w = toWorld(event->position());
    QString where = QString("x %1  y %2").arg(w.x, 0, 'f', 3).arg(w.y, 0, 'f', 3);
    if (threeD())
        where += QString("  z %1").arg(w.z, 0, 'f', 3);
    Q_EMIT pointerMoved(where);
    if (mPanning) {
        const QPointF d = event->position() - mLastPan;
        mLastPan = event->position();
        mCentre.x -= float(d.x() / mZoom);
        mCentre.y += float(d.y() / mZoom);
        mAutoFit = false;
        update();
        return;
    }
    // Another view dragging with the shared tool keeps it until the button comes up.
    if (!mTool)
        return;
    const auto *owner = dynamic_cast<const Viewport *>(mTool->host());
    if (!mToolDrag && owner && owner != this && owner->mToolDrag)
        return;
    mTool->setHost(this);
    const ToolEvent e = makeToolEvent(*this, event->position(), 1.f, false, event->modifiers());
    if (mToolDrag)
        mTool->drag(e);
    else
        mTool->hover(e);
}

void Viewport::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton) {
        mPanning = false;
        return;
    }
    if (event->button() == Qt::LeftButton && mTool && mToolDrag) {
        mToolDrag = false;
        mTool->release(makeToolEvent(*this, event->position(), 1.f, false, event->modifiers()));
        update();
    }
}

void Viewport::tabletEvent(QTabletEvent *event)
{
    if (!mTool) {
        event->ignore();
        return;
    }
    mTool->setHost(this);
    const ToolEvent e = makeToolEvent(*this, event->position(), float(event->pressure()), true,
                                      event->modifiers());
    switch (event->type()) {
    case QEvent::TabletPress:
        mToolDrag = true;
        mTool->press(e);
        break;
    case QEvent::TabletMove:
        if (mToolDrag)
            mTool->drag(e);
        else
            mTool->hover(e);
        break;
    case QEvent::TabletRelease:
        if (mToolDrag)
            mTool->release(e);
        mToolDrag = false;
        break;
    default: event->ignore(); return;
    }
    event->accept(); // no synthesized mouse events: the pen's pressure is kept
    update();
}

void Viewport::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    const sim::Vec3 before = toWorld(event->position());
    mZoom = std::clamp(mZoom * std::pow(1.2, steps), 10.0, 1e6);
    const sim::Vec3 after = toWorld(event->position());
    mCentre = mCentre + (before - after);
    mAutoFit = false;
    update();
}

namespace {

/// The first local model file among a drag's URLs, or empty.
QString droppedModel(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl &url : mime->urls())
        if (url.isLocalFile() && isMeshFile(url.toLocalFile().toStdString()))
            return url.toLocalFile();
    return {};
}

} // namespace

void Viewport::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedModel(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void Viewport::dragMoveEvent(QDragMoveEvent *event)
{
    if (!droppedModel(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void Viewport::dropEvent(QDropEvent *event)
{
    const QString path = droppedModel(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    Q_EMIT modelDropped(path, toWorld(event->position()));
}

void Viewport::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_F) {
        fitToView();
        return;
    }
    if (event->key() == Qt::Key_Escape && ownsTool()) {
        mTool->cancel();
        mToolDrag = false;
        update();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace plume
