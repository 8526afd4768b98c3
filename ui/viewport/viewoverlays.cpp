// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/viewoverlays.h>

#include <QPolygonF>

#include <algorithm>
#include <cmath>

namespace plume {

void paintStreamlines(QPainter &p, const std::vector<Streamline> &lines,
                      const QTransform &planeToWidget, float maxSpeed)
{
    const float top = std::max(maxSpeed, 1e-6f);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(Qt::NoBrush);
    std::vector<QPolygonF> polylines;
    polylines.reserve(lines.size());
    for (const Streamline &line : lines) {
        QPolygonF poly;
        poly.reserve(qsizetype(line.points.size()));
        for (const sim::Vec3 &q : line.points)
            poly << planeToWidget.map(QPointF(q.x, q.y));
        polylines.push_back(std::move(poly));
    }
    // A dark casing under every line keeps them apart from any field's colours.
    p.setPen(QPen(QColor(0, 0, 0, 120), 2.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    for (const QPolygonF &poly : polylines)
        p.drawPolyline(poly);
    for (std::size_t l = 0; l < lines.size(); ++l)
        for (std::size_t k = 1; k < lines[l].points.size(); ++k) {
            p.setPen(QPen(streamlineColor(lines[l].speeds[k - 1] / top), 1.3, Qt::SolidLine,
                          Qt::RoundCap));
            p.drawLine(polylines[l][qsizetype(k - 1)], polylines[l][qsizetype(k)]);
        }
    p.restore();
}

QColor streamlineColor(float t)
{
    // Deep blue (still) through cyan to near white (the frame's top speed): apart from the
    // warm Inferno and grey Smoke maps the fields use.
    const float u = std::clamp(t, 0.f, 1.f);
    auto mix = [u](float a, float b, float c) {
        return u < 0.5f ? a + (b - a) * (2.f * u) : b + (c - b) * (2.f * u - 1.f);
    };
    return QColor::fromRgbF(mix(0.15f, 0.2f, 0.9f), mix(0.3f, 0.85f, 1.f), mix(0.9f, 1.f, 1.f),
                            0.95f);
}

std::optional<LegendProbe> probeField(const FrameData &slice, ViewField field, sim::Vec3 plane)
{
    const DisplayField f = scalarField(field);
    const sim::Int3 n = slice.domain.cells;
    if (f == DisplayField::Count || n.x < 1 || n.y < 1)
        return std::nullopt;
    const sim::Vec3 c = slice.domain.toCell(plane);
    if (!(c.x >= 0.f && c.y >= 0.f && c.x < float(n.x) && c.y < float(n.y)))
        return std::nullopt;
    LegendProbe probe;
    probe.i = std::min(int(c.x), n.x - 1);
    probe.j = std::min(int(c.y), n.y - 1);
    const sim::ScalarGrid &g = slice.field(f);
    if (g.size().x == n.x && g.size().y == n.y && g.count() > 0)
        probe.value = g(probe.i, probe.j, 0); // fields a frame lacks (fuel without fire) are 0
    probe.solid = slice.solids.count() > 0 && slice.solids.size().x == n.x
                  && slice.solids.isSolid(probe.i, probe.j, 0);
    return probe;
}

QString probeText(const LegendProbe &probe, ViewField field)
{
    const QString unit = fieldUnit(field);
    const QString cell = QString("cell (%1, %2)").arg(probe.i).arg(probe.j);
    if (probe.solid)
        return "solid at " + cell;
    return QString("%1%2 at %3")
        .arg(QString::number(probe.value, 'g', 3), unit.isEmpty() ? QString() : " " + unit, cell);
}

void paintLegend(QPainter &p, const QRect &area, const FieldPicture &picture, ViewField field,
                 const std::optional<LegendProbe> &probe)
{
    const QRectF bar(area.right() - 33, area.top() + 40, 14, std::max(60, area.height() - 130));
    p.save();
    const QFontMetrics fm = p.fontMetrics();
    const QString unit = fieldUnit(field);
    const QString name = toDisplayName(field) + (unit.isEmpty() ? QString() : " (" + unit + ")");
    const QString probeLine = probe ? probeText(*probe, field) : QString();
    // Dark backings under the bar and each line of words, so they read over any picture.
    const QColor backing(16, 18, 22, 170);
    auto back = [&](const QRectF &r) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(backing);
        p.drawRoundedRect(r.adjusted(-4, -2, 4, 2), 4, 4);
    };
    back(bar);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int y = 0; y < int(bar.height()); ++y) {
        const float t = 1.f - float(y) / float(bar.height() - 1);
        p.setPen(QColor(mapColor(picture.map, t)));
        p.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    p.setPen(QColor(200, 200, 200));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    auto rightAligned = [&](const QString &text, double right, double baseline) {
        const double w = fm.horizontalAdvance(text);
        p.save();
        back(QRectF(right - w, baseline - fm.ascent(), w, fm.height()));
        p.restore();
        p.drawText(QPointF(right - w, baseline), text);
    };
    auto label = [&](float value, double y) {
        rightAligned(QString::number(value, 'g', 3), bar.left() - 6, y + fm.ascent() / 2.0);
    };
    label(picture.hi, bar.top());
    label(picture.lo, bar.bottom());
    rightAligned(name, bar.right(), bar.top() - 8);
    if (probe) {
        const double span = double(picture.hi) - double(picture.lo);
        const double t = span > 0.0 ? std::clamp((probe->value - picture.lo) / span, 0.0, 1.0)
                                    : 0.0;
        const double y = bar.bottom() - t * bar.height();
        if (!probe->solid) { // a mark beside the bar at the value
            p.setRenderHint(QPainter::Antialiasing);
            p.setBrush(Qt::white);
            p.setPen(QPen(Qt::black, 1.0));
            const QPointF tip(bar.left() - 1, y);
            p.drawPolygon(QPolygonF{tip, tip + QPointF(-7, -4), tip + QPointF(-7, 4)});
            p.setPen(QColor(200, 200, 200));
        }
        rightAligned(probeLine, bar.right(), bar.bottom() + 8 + fm.ascent());
    }
    p.restore();
}

} // namespace plume
