// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <QString>

#include <vector>

namespace plume {

class Document;

/// The keyframable properties of an item (every Animated<> member of Item). Values pass as
/// Vec3 whatever the member's type: a float property uses x alone.
enum class AnimProperty {
    Offset,
    Rotation,
    Scale,
    EmitterRate,
    ForceStrength,
    EmitterNoiseAmplitude, ///< an emitter's noise amplitude (docs/look.md)
};

inline constexpr AnimProperty kAnimProperties[] = {
    AnimProperty::Offset,      AnimProperty::Rotation,      AnimProperty::Scale,
    AnimProperty::EmitterRate, AnimProperty::ForceStrength, AnimProperty::EmitterNoiseAmplitude};

/// "Offset", "Rotation", "Scale", "Emitter rate", "Force strength", "Noise amplitude" (undo
/// texts, strip rows).
QString propertyLabel(AnimProperty p);
/// "offset", "rotation", "scale", "rate", "strength", "noiseAmplitude" (object names of key
/// buttons).
const char *propertyKey(AnimProperty p);
/// Offset, rotation and scale: what moving an item or "Insert Key" keys.
inline constexpr AnimProperty kPlacement[] = {AnimProperty::Offset, AnimProperty::Rotation,
                                              AnimProperty::Scale};
/// 3 for vectors, 1 for floats.
int components(AnimProperty p);

/// Frames closer than this are the same key frame.
inline constexpr double kSameFrame = 1e-6;

bool isAnimated(const Item &item, AnimProperty p);
bool hasKeyAt(const Item &item, AnimProperty p, double frame);
/// The frames of the property's keys, increasing.
std::vector<double> keyFrames(const Item &item, AnimProperty p);
/// The value at `frame` (the constant when not animated).
sim::Vec3 valueAt(const Item &item, AnimProperty p, double frame);
Interpolation interpolation(const Item &item, AnimProperty p);

/// Sets a key at `frame` (replacing one there). A property without keys becomes animated: its
/// constant stays as the value it falls back to once every key is removed.
void setKey(Item &item, AnimProperty p, double frame, sim::Vec3 value);
/// Removes the key at `frame`; false when there is none. The last key removed leaves the
/// property constant at that key's value, so the item stays where it was shown.
bool removeKey(Item &item, AnimProperty p, double frame);
/// Moves the keys at `frames` by `delta` frames. Refused (false, item untouched) when a moved
/// key would land on a key that stays, or before frame 0; keys stay strictly increasing.
bool moveKeys(Item &item, AnimProperty p, const std::vector<double> &frames, double delta);
void setInterpolation(Item &item, AnimProperty p, Interpolation i);
/// Keys offset, rotation and scale at `frame` with their values there (Insert Key; what a new
/// item painted or drawn with auto-key on gets).
void keyPlacement(Item &item, double frame);
/// Sets the constant (the value when there are no keys).
void setConstant(Item &item, AnimProperty p, sim::Vec3 value);

/// One undo step that replaces items (index, new item) with `text` ("Set key: Offset at frame
/// 12"). Nothing is pushed when no item changes. Returns whether a step was pushed.
bool pushItemEdits(Document *document, const QString &text,
                   const std::vector<std::pair<int, Item>> &edits);

} // namespace plume
