// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/cachesettings.h>

#include <QDialog>

class QSpinBox;

namespace plume {

/// Edit > Preferences: the frame cache's memory and disk budgets, the checkpoint interval and
/// the checkpoints' memory budget (MiB and frames). "Defaults" puts back the values derived
/// from this machine's memory.
class PreferencesDialog : public QDialog
{
    Q_OBJECT

public:
    PreferencesDialog(const CacheSettings &settings, QWidget *parent = nullptr);

    CacheSettings settings() const;
    void setSettings(const CacheSettings &settings);

private:
    QSpinBox *mMemory;
    QSpinBox *mDisk;
    QSpinBox *mInterval;
    QSpinBox *mCheckpoints;
};

} // namespace plume
