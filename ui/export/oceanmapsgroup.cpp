// SPDX-License-Identifier: Apache-2.0
#include <ui/export/oceanmapsgroup.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>

namespace plume {

namespace {

constexpr OceanMap kMaps[3] = {OceanMap::Height, OceanMap::Normal, OceanMap::Foam};
constexpr const char *kMapTips[3] = {
    "Height above the mean surface: 16-bit PNG scaled to [0, 1] by the range in "
    "<base>_ocean.json, or OpenEXR in metres",
    "Tangent-space normal (OpenGL convention: X right, Y up), 0.5 + 0.5 n",
    "Foam 0..1 where the surface folds (from the Jacobian of the choppy displacement)"};

} // namespace

OceanMapsGroup::OceanMapsGroup(QWidget *parent)
    : ExportGroup("Ocean maps", "oceanMapsGroup", parent)
{
    makeToggle("oceanMapsEnabled",
               "Ocean maps (<base>_height/_normal/_foam + <base>_ocean.json; ocean)");
    toggle()->setToolTip("Height, normal and foam maps that tile and loop (docs/ocean.md)");
    auto *form = new QFormLayout(this);
    auto *maps = new QWidget;
    auto *row = new QHBoxLayout(maps);
    row->setContentsMargins(0, 0, 0, 0);
    for (int m = 0; m < 3; ++m) {
        mMaps[m] = new QCheckBox(toString(kMaps[m]));
        mMaps[m]->setObjectName(QString("oceanMap_") + toString(kMaps[m]));
        mMaps[m]->setChecked(true);
        mMaps[m]->setToolTip(kMapTips[m]);
        row->addWidget(mMaps[m]);
        connect(mMaps[m], &QCheckBox::toggled, this, &OceanMapsGroup::edited);
    }
    row->addStretch();
    form->addRow("Maps", maps);

    mLayout = new QComboBox;
    mLayout->setObjectName("oceanLayout");
    mLayout->addItem("An image per frame (<base>_<map>.####)");
    mLayout->addItem("One atlas per map (<base>_<map>_flipbook)");
    mLayout->setToolTip("Over one loop period the frames loop: frame N flows into frame 1");
    form->addRow("Layout", mLayout);
    mColumns = new QSpinBox;
    mColumns->setObjectName("oceanColumns");
    mColumns->setRange(0, 256);
    mColumns->setSpecialValueText("auto (square)");
    mColumns->setToolTip("Atlas columns; auto: the smallest square that holds the frames");
    form->addRow("Atlas columns", mColumns);
    mFormat = new QComboBox;
    mFormat->setObjectName("oceanFormat");
    mFormat->addItem("PNG, 16 bit");
    mFormat->addItem("OpenEXR, half");
    mFormat->addItem("OpenEXR, float");
    mFormat->setToolTip("OpenEXR keeps the height in metres (linear); normal and foam are "
                        "encoded as in the PNGs");
    form->addRow("Format", mFormat);

    watchEdits();
}

void OceanMapsGroup::setOceanScene(bool ocean)
{
    mOcean = ocean;
    toggle()->setEnabled(ocean);
    toggle()->setChecked(ocean);
    setVisible(ocean);
    updateEnabled();
}

bool OceanMapsGroup::isOn() const { return mOcean && toggle()->isChecked(); }

OceanBakeSettings OceanMapsGroup::settings() const
{
    OceanBakeSettings s;
    s.maps.clear();
    for (int m = 0; m < 3; ++m)
        if (mMaps[m]->isChecked())
            s.maps.push_back(kMaps[m]);
    s.flipbook = mLayout->currentIndex() == 1;
    s.columns = mColumns->value();
    s.format = mFormat->currentIndex() == 0 ? ImageFormat::Png : ImageFormat::Exr;
    s.exrPrecision = mFormat->currentIndex() == 2 ? ExrPrecision::Float : ExrPrecision::Half;
    return s;
}

void OceanMapsGroup::apply(BakeSettings &s) const
{
    if (isOn())
        s.oceanMaps = settings();
}

void OceanMapsGroup::updateEnabled()
{
    setEnabled(isOn());
    mColumns->setEnabled(mLayout->currentIndex() == 1);
}

} // namespace plume
