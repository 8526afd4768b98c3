// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/settings/exportsettings.h>

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;

namespace plume {

/// The passes and file format of a flipbook or an image sequence (PassSettings,
/// docs/flipbook.md): lighting (standard or six-way), normal map with its green convention,
/// depth map with its opacity threshold, alpha alone, the packing preset (with the four
/// channels of a custom pack) and PNG or OpenEXR (half or float). The export dialog has one
/// for each output; child widgets are named with `prefix` ("flipbook", "images") for tests.
class PassesEditor : public QWidget
{
    Q_OBJECT

public:
    explicit PassesEditor(const QString &prefix, QWidget *parent = nullptr);

    void setSettings(const PassSettings &settings);
    PassSettings settings() const;
    /// 2D scenes: no depth map (a flat slab has one depth).
    void setThreeD(bool threeD);

signals:
    void changed();

private:
    void updateEnabled();

    QComboBox *mFormat;
    QComboBox *mLighting;
    QCheckBox *mNormals;
    QComboBox *mConvention;
    QCheckBox *mDepth;
    QDoubleSpinBox *mThreshold;
    QCheckBox *mAlpha;
    QComboBox *mPack;
    std::array<QComboBox *, 4> mChannels{};
    bool mThreeD = true;
    bool mLoading = false;
};

} // namespace plume
