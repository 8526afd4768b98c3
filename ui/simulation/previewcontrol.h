// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QObject>

#include <array>

class QAction;
class QMenu;
class QToolButton;
class QWidget;

namespace plume {

class Document;

/// The window's preview resolution (DomainSettings::preview, docs/preview.md): View > Preview
/// Resolution's three choices, and the status bar's button, which says at what resolution the
/// window simulates and goes back to full resolution in one click (from full, back to the last
/// preview). Every change is one undo step; bakes ignore the setting.
class PreviewControl : public QObject
{
    Q_OBJECT

public:
    PreviewControl(Document *document, QWidget *parent);

    /// View > Preview Resolution (owned by the control's parent widget).
    QMenu *menu() const { return mMenu; }
    /// The status bar's button.
    QToolButton *button() const { return mButton; }
    /// The action that chooses `p` (objectNames actionPreviewFull, -Half, -Quarter).
    QAction *action(PreviewResolution p) const { return mActions[std::size_t(p)]; }

    /// Makes `p` the scene's preview resolution (an undo step when it changes).
    void choose(PreviewResolution p);
    /// The button's click: to full resolution, or from full back to the last preview.
    void toggle();
    /// What the button says for the scene's domain, e.g. "Preview 1/2: 22 x 32 x 22 cells".
    static QString describe(const DomainSettings &domain);

private:
    void refresh();

    Document *mDocument = nullptr;
    QMenu *mMenu = nullptr;
    QToolButton *mButton = nullptr;
    std::array<QAction *, 3> mActions{};
    PreviewResolution mLastPreview = PreviewResolution::Half;
};

} // namespace plume
