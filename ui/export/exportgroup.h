// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <QGroupBox>

class QCheckBox;

namespace plume {

/// One section of the export dialog (FlipbookGroup, ImagesGroup, VdbGroup, OceanMapsGroup,
/// RenderGroup, like PassesEditor within them): it shows its part of the bake settings, writes
/// it back, keeps its own widgets' enabling and says changed() after every edit (not after
/// load()). An output's section has a box that turns the output on, shown in the dialog's
/// Output section; the section is enabled while it is checked.
class ExportGroup : public QGroupBox
{
    Q_OBJECT

public:
    /// The output's box (it has no parent until the dialog places it); null for the render
    /// section, which is no output.
    QCheckBox *toggle() const { return mOn; }
    /// 2D scenes: what a flat slab cannot make (depth maps, the 3D look and camera) is off.
    virtual void setThreeD(bool /*threeD*/) {}
    /// An output the scene cannot have (an ocean has no volume): its box off, disabled, and
    /// `reason` as its tooltip.
    void setUnavailable(const QString &reason);

    /// Shows the part of `settings` it edits.
    void load(const BakeSettings &settings);
    /// Writes its part into `settings`; the rest stays as it is.
    virtual void apply(BakeSettings &settings) const = 0;

signals:
    void changed();

protected:
    ExportGroup(const QString &title, const char *name, QWidget *parent);

    /// Makes the output's box (exportwidgets::checkBox).
    QCheckBox *makeToggle(const char *name, const QString &text);
    /// Reports edits of the box and of the section's own spin, combo and check boxes (its
    /// direct children; an editor inside it connects its own signal to edited()). Call once,
    /// when the widgets are made.
    void watchEdits();
    /// After an edit: updateEnabled(), then changed() unless loading.
    void edited();
    virtual void loadWidgets(const BakeSettings &settings) = 0;
    /// Enabled while the box is checked.
    virtual void updateEnabled();

private:
    QCheckBox *mOn = nullptr;
    bool mLoading = false;
};

} // namespace plume
