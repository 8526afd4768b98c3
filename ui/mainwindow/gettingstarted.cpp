// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/gettingstarted.h>

#include <ui/preferences.h>

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace plume {

namespace {

const Preference<bool> kShowGettingStarted("help/showGettingStarted", true);

/// The five things, with their shortcuts (the window's actions and tools).
const char *const kSteps[][2] = {
    {"Play and pause the simulation", "Space"},
    {"Paint smoke with the Emitter Brush, obstacles with the Obstacle Brush: drag in the view",
     "E, O"},
    {"Start from an example scene: File > New from Template", "Ctrl+Shift+N"},
    {"Change a property, e.g. Buoyancy (temperature) under Simulation: the cache simulates "
     "again from the first frame it changes",
     "Properties dock"},
    {"Export a flipbook, images or OpenVDB: File > Export", "Ctrl+E"},
};

} // namespace

GettingStarted::GettingStarted(QWidget *over)
    : QFrame(over)
{
    setObjectName("gettingStarted");
    setAttribute(Qt::WA_StyledBackground);
    setFocusPolicy(Qt::StrongFocus);
    setStyleSheet("#gettingStarted { background: rgba(20, 24, 32, 225); border: 1px solid "
                  "rgba(255, 255, 255, 90); border-radius: 8px; }"
                  "#gettingStarted QLabel { color: #e8e8e8; background: transparent; }"
                  "#gettingStarted QCheckBox { color: #e8e8e8; }");
    auto *box = new QVBoxLayout(this);
    box->setContentsMargins(22, 18, 22, 16);
    box->setSpacing(10);
    auto *title = new QLabel("<b style='font-size:15pt'>Getting started with Plume</b>", this);
    box->addWidget(title);
    for (int n = 0; n < 5; ++n) {
        auto *step = new QLabel(QString("<b>%1.</b> %2 &nbsp;<span style='color:#ffc870'>"
                                        "<b>%3</b></span>")
                                    .arg(n + 1)
                                    .arg(QString(kSteps[n][0]).toHtmlEscaped(),
                                         QString(kSteps[n][1]).toHtmlEscaped()),
                                this);
        step->setObjectName(QString("gettingStartedStep%1").arg(n + 1));
        step->setWordWrap(true);
        box->addWidget(step);
    }
    auto *hint = new QLabel("Help > Getting Started shows this again.", this);
    hint->setStyleSheet("color: #a0a8b8;");
    box->addWidget(hint);
    auto *row = new QHBoxLayout;
    mDontShow = new QCheckBox("Don't show again", this);
    mDontShow->setObjectName("gettingStartedDontShow");
    mClose = new QPushButton("Close", this);
    mClose->setObjectName("gettingStartedClose");
    mClose->setDefault(true);
    row->addWidget(mDontShow);
    row->addStretch(1);
    row->addWidget(mClose);
    box->addLayout(row);
    connect(mClose, &QPushButton::clicked, this, &GettingStarted::dismiss);
    over->installEventFilter(this);
    hide();
}

bool GettingStarted::wantedAtStart() { return kShowGettingStarted.get(); }

void GettingStarted::popUp()
{
    mDontShow->setChecked(!kShowGettingStarted.get());
    recentre();
    show();
    raise();
    mClose->setFocus();
}

void GettingStarted::dismiss()
{
    kShowGettingStarted.set(!mDontShow->isChecked());
    // The keyboard goes back to the views: hiding the focused Close button would pass it on to
    // the next widget in the chain, a text field of the Properties dock, and Space (step 1)
    // would type there instead of playing.
    if (QWidget *over = parentWidget())
        over->setFocus(Qt::OtherFocusReason);
    hide();
}

void GettingStarted::recentre()
{
    const QWidget *over = parentWidget();
    const int w = std::clamp(over->width() - 40, std::min(240, over->width()), 560);
    const int h = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(w)
                                                : layout()->totalSizeHint().height();
    setGeometry((over->width() - w) / 2, std::max(0, (over->height() - h) / 2), w, h);
}

bool GettingStarted::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible())
        recentre();
    return QFrame::eventFilter(watched, event);
}

void GettingStarted::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        dismiss();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace plume
