// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/framecache.h>

#include <QWidget>

class QAction;
class QComboBox;
class QGridLayout;
class QLabel;
class QMenu;
class QSlider;

namespace plume {

class Document;
class ToolOptions;
class Viewport;
class SurfaceView;
class VolumeView;

/// The window's centre: one large view, or four like a modelling package's quad view (the
/// main slice, the perspective volume view, an X slice and a Y slice). Each slice view has an
/// axis choice and a position slider (shown in 3D scenes); the other slice views mirror the
/// main viewport's field, overlays and tool, so painting works in any of them. The volume
/// view exists only when openGLUnavailableReason() is empty; otherwise its place says why it
/// is off and the slices work as before. In 2D scenes only the main viewport is shown, or for
/// ocean scenes (docs/ocean.md) the lit surface view instead (Surface View), which likewise
/// says why it is off without OpenGL.
class ViewLayout : public QWidget
{
    Q_OBJECT

public:
    /// `main` is the window's viewport (it stays the one the window talks to).
    ViewLayout(Viewport *main, QWidget *parent = nullptr);

    void setQuad(bool quad);
    bool isQuad() const { return mQuad; }
    /// Single layout: show the volume view instead of the main slice.
    void setVolumeShown(bool volume);
    bool isVolumeShown() const { return mVolumeShown; }
    /// Ocean scenes: show the lit surface view instead of the main viewport.
    void setSurfaceShown(bool surface);
    bool isSurfaceShown() const { return mSurfaceShown; }
    /// The ocean surface view, or null when OpenGL 3.3 is not available.
    SurfaceView *surfaceView() const { return mSurface; }

    /// Slice view n: 0 the main viewport, 1 the X slice, 2 the Y slice.
    Viewport *sliceView(int n) const { return mPanels[n].view; }
    /// Sets a slice view's axis and its cell layer along it (clamped).
    void setSlice(int view, int axis, int layer);
    /// The volume view, or null when OpenGL 3.3 is not available.
    VolumeView *volumeView() const { return mVolume; }
    /// Why the volume view is off (empty when it is on).
    QString volumeOffReason() const { return mVolumeOff; }

    /// The layout actions (Quad View, Volume View, Surface View) for the window's View menu.
    void addMenuActions(QMenu *menu);

public slots:
    /// Hands a frame to the views other than the main viewport (the window feeds that one).
    void showFrame(const plume::FramePtr &frame);

private:
    struct Panel
    {
        QWidget *widget = nullptr;
        QWidget *header = nullptr;
        QComboBox *axis = nullptr;
        QSlider *slider = nullptr;
        QLabel *label = nullptr;
        Viewport *view = nullptr;
    };

    Panel makePanel(int index, Viewport *view, int axis);
    QWidget *makeVolumePanel();
    QWidget *makeSurfacePanel();
    void mirrorMain();
    void syncToScene(bool reset);
    void applySlider(int panel);
    void relayout();
    void volumeFailed(const QString &reason);

    Document *mDocument;
    Panel mPanels[3];
    QWidget *mVolumePanel = nullptr;
    VolumeView *mVolume = nullptr;
    QLabel *mVolumeMessage = nullptr;
    QString mVolumeOff;
    QGridLayout *mGrid = nullptr;
    QAction *mQuadAction = nullptr;
    QAction *mVolumeAction = nullptr;
    QAction *mSurfaceAction = nullptr;
    QWidget *mSurfacePanel = nullptr;
    SurfaceView *mSurface = nullptr;
    bool mQuad = false;
    bool mVolumeShown = false;
    bool mSurfaceShown = false;
    bool mThreeD = false;
    bool mOcean = false;
};

} // namespace plume
