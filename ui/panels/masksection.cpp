// SPDX-License-Identifier: Apache-2.0
// The properties panel's control-mask editors (docs/look.md): a mask's field, its from..to
// range and its ramp, for a force field and for the vorticity confinement. Every change is one
// undo step through the setter the caller gives.
#include <ui/panels/propertiespanel.h>

#include <QFormLayout>
#include <QRegularExpression>
#include <QStringList>

#include <string>

namespace plume {

namespace {

/// "0 0, 0.5 1, 1 0.25": the ramp's [position, value] pairs.
QString rampText(const sim::Ramp &ramp)
{
    QStringList pairs;
    for (const sim::RampKey &k : ramp.keys)
        pairs << QString("%1 %2").arg(double(k.position)).arg(double(k.value));
    return pairs.join(", ");
}

/// Reads rampText's form; false when it is not pairs of numbers.
bool parseRamp(const QString &text, sim::Ramp &out)
{
    sim::Ramp ramp;
    ramp.keys.clear();
    for (const QString &pair : text.split(',', Qt::SkipEmptyParts)) {
        const QStringList numbers = pair.trimmed().split(QRegularExpression("\\s+"),
                                                         Qt::SkipEmptyParts);
        bool okPosition = false, okValue = false;
        if (numbers.size() != 2)
            return false;
        sim::RampKey key{numbers[0].toFloat(&okPosition), numbers[1].toFloat(&okValue)};
        if (!okPosition || !okValue)
            return false;
        ramp.keys.push_back(key);
    }
    out = std::move(ramp);
    return true;
}

} // namespace

void PropertiesPanel::addMask(QFormLayout *form, const QString &label, const char *objectPrefix,
                              std::function<sim::ControlMask()> get,
                              std::function<void(const sim::ControlMask &)> set)
{
    // Only valid masks reach the document (from != to, a sorted ramp in [0, 1]); a refused
    // edit goes back to the shown value.
    auto change = [get, set](auto edit) {
        return [get, set, edit](auto v) {
            sim::ControlMask m = get();
            if (edit(m, v) && sim::validate(m))
                set(m);
        };
    };
    QStringList fields;
    for (const char *name : sim::kControlFieldNames.names)
        fields << QString::fromLatin1(name);
    addChoice(
        form, label, fields, [get] { return int(get().field); },
        change([](sim::ControlMask &m, int v) {
            m.field = sim::ControlField(v);
            return true;
        }));
    // Spin boxes are named "<prefix>From" and "<prefix>To": the table's keys repeat between
    // masks (addDouble copies the name at once).
    const std::string fromName = std::string(objectPrefix) + "From";
    const std::string toName = std::string(objectPrefix) + "To";
    sim::Param from = sim::controlMaskParams::from, to = sim::controlMaskParams::to;
    from.key = fromName.c_str();
    to.key = toName.c_str();
    addDouble(
        form, label + " from", [get] { return double(get().from); },
        change([](sim::ControlMask &m, double v) {
            m.from = float(v);
            return true;
        }),
        from);
    addDouble(
        form, label + " to", [get] { return double(get().to); },
        change([](sim::ControlMask &m, double v) {
            m.to = float(v);
            return true;
        }),
        to);
    addText(
        form, label + " ramp", [get] { return rampText(get().ramp); },
        change([](sim::ControlMask &m, QString v) { return parseRamp(v, m.ramp); }));
}

} // namespace plume
