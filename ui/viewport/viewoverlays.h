// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/viewport/fieldrender.h>

#include <core/render/streamlines.h>

#include <QColor>
#include <QPainter>
#include <QString>
#include <QTransform>

#include <optional>

namespace plume {

/// Streamlines as antialiased polylines over a dark casing, each segment coloured by the speed
/// at its start (streamlineColor of speed / `maxSpeed`). `planeToWidget` maps the lines' plane
/// coordinates to the widget.
void paintStreamlines(QPainter &p, const std::vector<Streamline> &lines,
                      const QTransform &planeToWidget, float maxSpeed);

/// The streamlines' colour for a speed t in [0, 1] of the frame's top speed (clamped): deep blue
/// through cyan to near white.
QColor streamlineColor(float t);

/// The field value under the pointer, for the legend.
struct LegendProbe
{
    float value = 0.f;
    int i = 0; ///< the cell, in the shown plane's u-v
    int j = 0;
    bool solid = false;
};

/// The shown field's value at a point of the plane (plane coordinates), or none outside the
/// frame's cells or for views without a scalar (dye, normal, liquid texture).
std::optional<LegendProbe> probeField(const FrameData &slice, ViewField field, sim::Vec3 plane);

/// The colour legend in the top-right corner of `area`: the picture's map as a bar, its range
/// with the field's unit, and the probe (value and cell) with a mark on the bar.
void paintLegend(QPainter &p, const QRect &area, const FieldPicture &picture, ViewField field,
                 const std::optional<LegendProbe> &probe);

/// The text the legend shows for a probe, e.g. "0.412 units/s at cell (12, 40)".
QString probeText(const LegendProbe &probe, ViewField field);

} // namespace plume
