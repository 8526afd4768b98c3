// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/controlmask.h>

#include <cmath>
#include <string>

namespace plume::sim {

float Ramp::at(float t) const
{
    if (keys.empty())
        return t;
    if (!(t > keys.front().position))
        return keys.front().value;
    for (std::size_t n = 1; n < keys.size(); ++n) {
        const RampKey &a = keys[n - 1], &b = keys[n];
        if (t <= b.position)
            return a.value + (t - a.position) / (b.position - a.position) * (b.value - a.value);
    }
    return keys.back().value;
}

float ControlMask::weight(float value) const
{
    if (field == ControlField::None)
        return 1.f;
    const float t = (value - from) / (to - from);
    return ramp.at(t > 0.f ? (t < 1.f ? t : 1.f) : 0.f);
}

Status validate(const ControlMask &m)
{
    if (std::size_t(m.field) >= kControlFieldNames.size())
        return Status::failure("mask: unknown field " + std::to_string(int(m.field)));
    if (!std::isfinite(m.from) || !std::isfinite(m.to))
        return Status::failure("mask: from and to must be finite numbers");
    if (m.from == m.to)
        return Status::failure("mask: from and to are both " + formatNumber(m.from)
                               + "; they must differ (the remap divides by to - from)");
    const std::vector<RampKey> &keys = m.ramp.keys;
    if (keys.empty() || keys.size() > Ramp::kMaxKeys)
        return Status::failure("mask: the ramp has " + std::to_string(keys.size())
                               + " keys; expected 1 to " + std::to_string(Ramp::kMaxKeys));
    for (std::size_t n = 0; n < keys.size(); ++n) {
        const std::string key = "mask: ramp key " + std::to_string(n) + ": ";
        if (!controlMaskParams::rampPosition.contains(keys[n].position))
            return Status::failure(key + "position " + formatNumber(keys[n].position)
                                   + "; expected " + controlMaskParams::rampPosition.describe());
        if (!controlMaskParams::rampValue.contains(keys[n].value))
            return Status::failure(key + "value " + formatNumber(keys[n].value) + "; expected "
                                   + controlMaskParams::rampValue.describe());
        if (n > 0 && !(keys[n].position > keys[n - 1].position))
            return Status::failure(key + "position " + formatNumber(keys[n].position)
                                   + " is not above the previous key's "
                                   + formatNumber(keys[n - 1].position));
    }
    return Status::success();
}

} // namespace plume::sim
