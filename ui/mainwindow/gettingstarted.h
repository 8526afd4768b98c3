// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFrame>

class QCheckBox;
class QPushButton;

namespace plume {

/// The getting-started card: a translucent panel over the window's views that names five things
/// to try, each with its shortcut, and closes with its button (or Escape). "Don't show again"
/// keeps it from coming up at later starts (QSettings help/showGettingStarted); Help > Getting
/// Started shows it whenever asked. It covers only its own rectangle in the middle of the
/// views, so the rest of them still takes the mouse.
class GettingStarted : public QFrame
{
    Q_OBJECT

public:
    /// `over` is the widget it floats over and stays centred in.
    explicit GettingStarted(QWidget *over);

    /// Whether it comes up when the app starts (not after "Don't show again").
    static bool wantedAtStart();
    /// Shows it, centred and on top; the check box shows the saved choice.
    void popUp();

    QCheckBox *dontShowAgain() const { return mDontShow; }
    QPushButton *closeButton() const { return mClose; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void recentre();
    void dismiss();

    QCheckBox *mDontShow;
    QPushButton *mClose;
};

} // namespace plume
