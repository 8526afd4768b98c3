#pragma once

#include <sim/domain.h>
#include <sim/grid.h>
#include <sim/types.h>

#include <QMetaType>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace plume {

/// Fields kept of every simulated frame for display (one z-slice each, cell centred).
enum class DisplayField : std::uint8_t {
    Density,
    Temperature,
    DyeRed,
    DyeGreen,
    DyeBlue,
    VelocityX,
    VelocityY,
    Speed,
    Vorticity,
    Pressure,
    Divergence,
    VelocityZ,
    Fuel,  ///< combustion only: empty without it
    Flame, ///< combustion only: empty without it
    Count
};

/// The whole 3D grid of every display field and the solid cells of one frame, for the slice
/// and volume views. Only the newest frame in the cache keeps one (see FrameCache::insert).
struct FrameVolume
{
    sim::ScalarGrid fields[int(DisplayField::Count)]; ///< cell centred; dye empty without dye
    sim::FlagGrid solids;

    const sim::ScalarGrid &field(DisplayField f) const { return fields[int(f)]; }
    std::size_t bytes() const;
};

using VolumePtr = std::shared_ptr<const FrameVolume>;

/// One simulated frame as the window shows it: the middle z-slice of each field (the whole
/// field in 2D), the solid cells, and the frame's solver numbers; in 3D also the whole volume
/// while it is the newest frame. Minimum and maximum span the whole volume. Immutable once
/// published.
struct FrameData
{
    int frame = 0;      ///< frames simulated (0: the initial state)
    double time = 0.0;  ///< seconds
    sim::Domain domain; ///< the solver's domain (the slice is its middle z)
    sim::ScalarGrid fields[int(DisplayField::Count)]; ///< slices; dye empty without dye
    float minimum[int(DisplayField::Count)] = {};
    float maximum[int(DisplayField::Count)] = {};
    sim::FlagGrid solids; ///< the slice's solid cells
    double msPerStep = 0.0;
    int substeps = 0;
    int pressureIterations = 0; ///< summed over the frame's substeps
    double pressureResidual = 0.0;
    std::string pressureTrouble; ///< sim::pressureTrouble of the frame: "" when all went well
    VolumePtr volume;            ///< 3D only, and only while this is the newest frame

    const sim::ScalarGrid &field(DisplayField f) const { return fields[int(f)]; }
    bool hasDye() const { return field(DisplayField::DyeRed).count() > 0; }
    bool hasFlame() const { return field(DisplayField::Flame).count() > 0; }
    std::size_t bytes() const;
};

using FramePtr = std::shared_ptr<const FrameData>;

/// Frames already simulated, by frame number, shared between the worker (which adds) and the
/// window (which reads when scrubbing). Thread-safe. When the total size passes the budget the
/// oldest frames are dropped (frame 0 stays). Memory stays sane in 3D: only the newest frame
/// keeps its volume; inserting a frame replaces the others by copies without one (a viewer
/// still holding the old pointer keeps its volume alive until it lets go).
class FrameCache
{
public:
    explicit FrameCache(std::size_t budgetBytes = std::size_t(512) << 20);

    void insert(FramePtr frame);
    /// The frame, or null when it was never simulated, was invalidated or dropped.
    FramePtr at(int frame) const;
    bool contains(int frame) const;
    /// Drops every frame after `frame` (an edit at `frame` changes what follows it).
    void invalidateAfter(int frame);
    void clear();
    /// The highest cached frame, or -1.
    int last() const;
    int count() const;

private:
    mutable std::mutex mMutex;
    std::map<int, FramePtr> mFrames;
    std::size_t mBudget;
    std::size_t mBytes = 0;
};

} // namespace plume

Q_DECLARE_METATYPE(plume::FramePtr)
