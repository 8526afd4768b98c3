// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/viewport/fieldrender.h>
#include <ui/viewport/viewoverlays.h>

#include <core/scene/scene.h>
#include <ui/document/sliceplane.h>
#include <ui/simulation/framecache.h>
#include <ui/tools/toolhost.h>

#include <QImage>
#include <QPainterPath>
#include <QTransform>
#include <QWidget>

namespace plume {

class Document;
class Tool;
class ToolOptions;

/// The 2D viewport: the chosen field of the shown frame with its colour map and legend, and
/// overlays (velocity arrows, grid, obstacles, item outlines with the selection's handles, the
/// sph scheme's particles as points coloured by speed: in 3D those within half a cell of the
/// slice plane).
/// Wheel zooms about the pointer, middle drag pans, F fits the domain; the left button goes to
/// the current tool. In 3D scenes it shows an axis-aligned slice (SlicePlane: X, Y or Z at a
/// position; the middle z-slice by default) with the items' cross-sections; tools act on that
/// plane. Several viewports may share one tool: the one that last forwarded an event owns it.
///
/// The view's x-y are the plane's u-v (world x-y for the Z slice); widget y points down. The
/// view is a centre point (plane coordinates) and a zoom. Tools see it as their ToolHost.
class Viewport : public QWidget, public ToolHost
{
    Q_OBJECT

public:
    enum Overlay {
        Arrows = 1,
        Grid = 2,
        Obstacles = 4,
        Outlines = 8,
        Streamlines = 16, ///< evenly spaced, coloured by speed (render/streamlines.h)
        Legend = 32,      ///< the colour legend with the value under the pointer
        Particles = 64,   ///< the sph scheme's particles, coloured by speed
    };

    Viewport(Document *document, ToolOptions *options, QWidget *parent = nullptr);

    Document *document() const override { return mDocument; }
    ToolOptions *toolOptions() const override { return mOptions; }

    void setTool(Tool *tool);
    Tool *tool() const { return mTool; }
    void setField(ViewField field);
    ViewField field() const { return mField; }
    void setOverlay(Overlay overlay, bool on);
    bool overlay(Overlay overlay) const { return mOverlays & overlay; }

    /// The slice shown in 3D scenes (ignored in 2D, which always shows the x-y plane).
    void setSlicePlane(SlicePlane plane);
    const SlicePlane &slicePlane() const override { return mPlane; }
    /// Whether the document's scene is 3D.
    bool threeD() const override;
    /// The shown frame's slice on the plane (a 2D frame in plane coordinates), or null when
    /// the frame has no 3D data for it (see sliceFrame).
    const FrameData *sliceData() const { return mHasSlice ? &mSlice : nullptr; }
    /// The streamlines of the shown slice (computed once per frame and plane while the overlay
    /// is on; empty otherwise), in plane coordinates.
    const std::vector<Streamline> &streamlines() const { return mStreamlines; }
    /// The shown field's value under the pointer (as the legend shows it), or none.
    std::optional<LegendProbe> pointerProbe() const;

    /// Shows a frame (from the simulation controller).
    void showFrame(const FramePtr &frame);
    const FramePtr &frame() const { return mFrame; }
    /// The shown frame's number (0 before any).
    int frameNumber() const override { return mFrame ? mFrame->frame : 0; }

    /// Fits the domain into the widget and keeps fitting on resize until the user pans/zooms.
    void fitToView();

    // Coordinates. toWorld gives the point on the slice plane (the middle z in 2D).
    QPointF toWidget(sim::Vec3 world) const override;
    sim::Vec3 toWorld(QPointF widget) const;
    double pixelsPerUnit() const override { return mZoom; }
    /// The domain rectangle in widget coordinates.
    QRectF domainRect() const;
    /// Where a placed shape meets the shown plane (the x-y plane in 2D), in plane coordinates.
    PlaneSection section(const Shape &shape, const Placement &placement) const override;
    /// A shape's outline (its cross-section with the slice plane in 3D) in widget coordinates
    /// at a placement; empty when the plane misses it.
    QPainterPath shapePath(const Shape &shape, const Placement &placement) const override;
    /// Bounds of the shape's cross-section in plane coordinates (y up); empty when missed.
    QRectF planeBounds(const Shape &shape, const Placement &placement) const override;
    /// Plane coordinates -> widget pixels.
    QTransform planeToWidgetTransform() const;

    /// The topmost item whose shape contains the widget point (3 px slack), or -1.
    int itemAt(QPointF pos) const override;
    std::vector<int> itemsTouching(QRectF rect) const override;
    /// Whether pos is on the scale handle of item `index`.
    bool scaleHandleHit(int index, QPointF pos) const override;
    /// Whether pos is on the rotate handle of item `index`.
    bool rotateHandleHit(int index, QPointF pos) const override;
    /// Widget position of an item's scale handle (top-right of its outline).
    QPointF scaleHandle(int index) const;
    /// Widget position of an item's rotate handle (above the middle of its outline's top).
    QPointF rotateHandle(int index) const;
    /// Whether item `index` exists and shows scale and rotate handles (it has an outline here).
    bool hasHandles(int index) const;

    static QColor kindColor(ItemKind kind);
    QColor itemColor(ItemKind kind) const override { return kindColor(kind); }
    void requestRepaint() override { update(); }

    QSize sizeHint() const override { return {720, 720}; }

signals:
    void pointerMoved(const QString &description);
    /// A model file (meshFileSuffixes) was dropped on the view at a world point on its plane.
    void modelDropped(const QString &path, plume::sim::Vec3 world);
    /// The field, an overlay or the tool changed (a layout mirrors them to its other views).
    void displayChanged();
    void slicePlaneChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void tabletEvent(QTabletEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void paintArrows(QPainter &p) const;
    void paintParticles(QPainter &p) const;
    void paintGrid(QPainter &p) const;
    void paintItems(QPainter &p) const;
    void paintHandles(QPainter &p, int index) const;
    void paintNoSlice(QPainter &p) const;
    void paintPlaneLabel(QPainter &p) const;
    void rebuildPicture();
    void rebuildStreamlines();
    Placement itemPlacement(const Item &item) const;
    QPointF planeToWidget(sim::Vec3 plane) const;
    sim::Domain planeDomain() const;
    bool ownsTool() const;

    Document *mDocument;
    ToolOptions *mOptions;
    Tool *mTool = nullptr;
    ViewField mField = ViewField::Dye;
    int mOverlays = Obstacles | Outlines | Particles | Legend;
    FramePtr mFrame;
    FieldPicture mPicture;
    LiquidTextureLook mTexture; ///< the scene's liquid texture, decoded
    std::string mTextureSource; ///< what mTexture was decoded from (file and folder)
    SlicePlane mPlane;
    FrameData mSlice;
    bool mHasSlice = false;
    std::vector<Streamline> mStreamlines;
    std::optional<QPointF> mPointer; ///< where the pointer is over the view
    sim::Vec3 mCentre{0.5f, 0.5f, 0.f};
    double mZoom = 600.0;
    bool mAutoFit = true;
    bool mPanning = false;
    bool mToolDrag = false;
    QPointF mLastPan;
};

} // namespace plume
