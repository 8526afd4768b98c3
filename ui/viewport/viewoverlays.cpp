#include "viewoverlays.h"

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
    for (const Streamline &line : lines)
        for (std::size_t k = 1; k < line.points.size(); ++k) {
            const sim::Vec3 a = line.points[k - 1], b = line.points[k];
            const float t = std::clamp(line.speeds[k - 1] / top, 0.f, 1.f);
            QColor colour(mapColor(ColorMap::Inferno, 0.3f + 0.7f * t));
            colour.setAlpha(230);
            p.setPen(QPen(colour, 1.3, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(planeToWidget.map(QPointF(a.x, a.y)), planeToWidget.map(QPointF(b.x, b.y)));
        }
    p.restore();
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
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int y = 0; y < int(bar.height()); ++y) {
        const float t = 1.f - float(y) / float(bar.height() - 1);
        p.setPen(QColor(mapColor(picture.map, t)));
        p.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    p.setPen(QColor(200, 200, 200));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    const QFontMetrics fm = p.fontMetrics();
    const QString unit = fieldUnit(field);
    auto rightAligned = [&](const QString &text, double right, double baseline) {
        p.drawText(QPointF(right - fm.horizontalAdvance(text), baseline), text);
    };
    auto label = [&](float value, double y) {
        rightAligned(QString::number(value, 'g', 3), bar.left() - 6, y + fm.ascent() / 2.0);
    };
    label(picture.hi, bar.top());
    label(picture.lo, bar.bottom());
    const QString name = toDisplayName(field) + (unit.isEmpty() ? QString() : " (" + unit + ")");
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
        rightAligned(probeText(*probe, field), bar.right(), bar.bottom() + 8 + fm.ascent());
    }
    p.restore();
}

} // namespace plume
