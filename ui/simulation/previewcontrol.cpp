// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/previewcontrol.h>

#include <ui/document/changeevent.h>
#include <ui/document/document.h>
#include <ui/document/undocommands.h>

#include <QActionGroup>
#include <QMenu>
#include <QToolButton>
#include <QUndoStack>

namespace plume {

namespace {

const char *const kLabels[3] = {"&Full Resolution", "&Half Resolution (1/2)",
                                "&Quarter Resolution (1/4)"};
const char *const kNames[3] = {"actionPreviewFull", "actionPreviewHalf", "actionPreviewQuarter"};

QString cellsText(const DomainSettings &d)
{
    const sim::Int3 n = domainCells(d);
    return d.dimension == Dimension::ThreeD ? QString("%1 x %2 x %3").arg(n.x).arg(n.y).arg(n.z)
                                            : QString("%1 x %2").arg(n.x).arg(n.y);
}

} // namespace

PreviewControl::PreviewControl(Document *document, QWidget *parent)
    : QObject(parent)
    , mDocument(document)
{
    mMenu = new QMenu("Preview &Resolution", parent);
    mMenu->setObjectName("previewResolutionMenu");
    mMenu->setToolTipsVisible(true);
    auto *group = new QActionGroup(this);
    for (int n = 0; n < 3; ++n) {
        QAction *a = mMenu->addAction(kLabels[n]);
        a->setObjectName(kNames[n]);
        a->setCheckable(true);
        a->setStatusTip(n == 0 ? "The window simulates at the scene's resolution, as bakes do"
                               : QString("The window simulates at 1/%1 of the scene's "
                                         "resolution while you author; bakes use the full "
                                         "resolution (docs/preview.md)")
                                     .arg(previewDivisor(PreviewResolution(n))));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, n] { choose(PreviewResolution(n)); });
        mActions[std::size_t(n)] = a;
    }
    mButton = new QToolButton(parent);
    mButton->setObjectName("previewButton");
    mButton->setAutoRaise(true);
    mButton->setPopupMode(QToolButton::MenuButtonPopup);
    mButton->setMenu(mMenu);
    connect(mButton, &QToolButton::clicked, this, &PreviewControl::toggle);
    connect(mDocument, &Document::changed, this, [this](const ChangeEvent &e) {
        if (e.type == ChangeEvent::Type::Reset || e.type == ChangeEvent::Type::Domain)
            refresh();
    });
    refresh();
}

void PreviewControl::choose(PreviewResolution p)
{
    if (mDocument->scene().domain.preview == p) {
        refresh(); // a checked action stays checked
        return;
    }
    mDocument->undoStack()->push(new ChangeValue<values::ScenePreview>(mDocument, -1, p));
}

void PreviewControl::toggle()
{
    const PreviewResolution now = mDocument->scene().domain.preview;
    choose(now == PreviewResolution::Full ? mLastPreview : PreviewResolution::Full);
}

QString PreviewControl::describe(const DomainSettings &domain)
{
    if (domain.preview == PreviewResolution::Full)
        return "Full resolution: " + cellsText(domain) + " cells";
    return QString("Preview 1/%1: %2 of %3 cells")
        .arg(previewDivisor(domain.preview))
        .arg(cellsText(previewDomain(domain)), cellsText(domain));
}

void PreviewControl::refresh()
{
    const DomainSettings &d = mDocument->scene().domain;
    if (d.preview != PreviewResolution::Full)
        mLastPreview = d.preview;
    mActions[std::size_t(d.preview)]->setChecked(true);
    mButton->setText(describe(d));
    mButton->setToolTip(
        d.preview == PreviewResolution::Full
            ? QString("The window simulates at the scene's resolution. Click to preview at 1/%1 "
                      "while you author (bakes always use the full resolution).")
                  .arg(previewDivisor(mLastPreview))
            : QString("The window simulates at a preview resolution; bakes use the full "
                      "resolution. Click for full resolution."));
    // A preview stands out: what is shown is not what a bake gives.
    mButton->setStyleSheet(d.preview == PreviewResolution::Full ? QString()
                                                                : QString("color: #e0a030;"));
}

} // namespace plume
