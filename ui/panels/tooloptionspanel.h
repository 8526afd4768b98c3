// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

namespace plume {

class ToolOptions;

/// Brush radius, strength, hardness, the kind the shape tools make and the dye of new
/// emitters.
class ToolOptionsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ToolOptionsPanel(ToolOptions *options, QWidget *parent = nullptr);
};

} // namespace plume
