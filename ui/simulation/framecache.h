// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/simulation/spillfolder.h>

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/types.h>

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

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
    // The ocean scheme's surface (docs/ocean.md): empty in the other schemes.
    Height,
    DisplacementX,
    DisplacementY,
    NormalX,
    NormalY,
    NormalZ,
    Foam,
    /// Liquid texture offsets (sim/ops/advectedcoords.h), cells: set 0 x, y, set 1 x, y. 2D scenes
    /// with a liquid texture only: empty without it.
    TextureOffset0X,
    TextureOffset0Y,
    TextureOffset1X,
    TextureOffset1Y,
    Count
};

/// The whole 3D grid of every display field and the solid cells of one frame, for the slice
/// and volume views. Every 3D frame keeps one.
struct FrameVolume
{
    sim::ScalarGrid fields[int(DisplayField::Count)]; ///< cell centred; dye empty without dye
    sim::FlagGrid solids;

    const sim::ScalarGrid &field(DisplayField f) const { return fields[int(f)]; }
    std::size_t bytes() const;
};

using VolumePtr = std::shared_ptr<const FrameVolume>;

/// One simulated frame as the window shows it: the middle z-slice of each field (the whole
/// field in 2D), the solid cells, and the frame's solver numbers; in 3D also the whole volume.
/// Minimum and maximum span the whole volume. Immutable once published.
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
    double activeShare = 1.0; ///< of the domain's cells simulated (sim::Solver::activeShare)
    int substeps = 0;
    int pressureIterations = 0; ///< summed over the frame's substeps
    double pressureResidual = 0.0;
    std::string pressureTrouble; ///< sim::pressureTrouble of the frame: "" when all went well
    VolumePtr volume;            ///< 3D only
    /// The sph scheme's particles: x, y, z (world units) and speed (units / s) of each, in the
    /// solver's order; empty for the grid schemes.
    std::vector<float> particles;
    float particleRadius = 0.f; ///< world units
    float maxParticleSpeed = 0.f;

    const sim::ScalarGrid &field(DisplayField f) const { return fields[int(f)]; }
    std::size_t particleCount() const { return particles.size() / 4; }
    bool hasDye() const { return field(DisplayField::DyeRed).count() > 0; }
    bool hasFlame() const { return field(DisplayField::Flame).count() > 0; }
    bool hasTexture() const { return field(DisplayField::TextureOffset1Y).count() > 0; }
    std::size_t bytes() const;
};

using FramePtr = std::shared_ptr<const FrameData>;

/// What a FrameCache holds, for the status bar.
struct CacheUsage
{
    int frames = 0;              ///< frames that can be shown (memory and disk)
    int onDisk = 0;              ///< of which spilled to disk
    std::size_t memoryBytes = 0; ///< frames in memory
    std::size_t diskBytes = 0;   ///< spilled files
};

/// Frames already simulated, by frame number, shared between the worker (which adds) and the
/// window (which reads when scrubbing and playing back). Thread-safe. Every frame keeps all of
/// its display data, in 3D its whole volume.
///
/// Memory: when the frames in memory pass the memory budget, the lowest-numbered ones (the
/// newest frame always stays) are spilled to the spill folder, compressed (framefile.h), and
/// read back when asked for. A fixed order by frame number, not least-recently-used: playback
/// loops over the range, and a loop longer than the memory is LRU's worst case (every frame
/// would be evicted just before it is needed again); by frame number the newest frames, where
/// the simulation goes on and edits land, stay in memory and the loop reads only the rest.
/// Reading a spilled 3D frame of 128 cells takes tens of milliseconds: playback prefetches the
/// next one on a pool thread (prefetch()); the few frames read back are kept outside the budget.
/// Disk: past the disk budget the lowest-numbered spilled frames are deleted for good (frame 0
/// stays). Without a spill folder or with a zero disk budget, frames past the memory budget are
/// dropped, oldest first (frame 0 stays).
///
/// Spilled files carry the cache's tag, new at every clear(): a file of another scene, version
/// or session is never shown. Invalidating or clearing deletes the files too.
class FrameCache
{
public:
    explicit FrameCache(std::size_t memoryBudget = std::size_t(512) << 20,
                        std::size_t diskBudget = 0);
    ~FrameCache();

    /// Spills go to `folder` from now on (frames spilled before stay in theirs).
    void setSpillFolder(SpillFolderPtr folder);
    /// New budgets; they act at the next insert() or trim().
    void setBudgets(std::size_t memoryBudget, std::size_t diskBudget);
    /// Spills (or drops) frames until the memory in use fits the budget. Encodes and writes
    /// files: the worker calls it (insert() does), not the window.
    void trim();

    void insert(FramePtr frame);
    /// The frame, read back from disk when it was spilled; null when it was never simulated,
    /// was invalidated or dropped, or its file could not be read.
    FramePtr at(int frame) const;
    /// Starts reading a spilled frame on a pool thread, so that a later at() finds it read
    /// (playback asks for the next frame while showing one). Nothing for frames in memory.
    void prefetch(int frame) const;
    bool contains(int frame) const;
    bool inMemory(int frame) const;
    /// Drops every frame after `frame` (an edit at `frame` changes what follows it).
    void invalidateAfter(int frame);
    /// Drops every frame and file; later spills carry a new tag.
    void clear();
    /// The highest cached frame, or -1.
    int last() const;
    int count() const;
    CacheUsage usage() const;

private:
    struct Entry
    {
        FramePtr memory; ///< null once spilled
        QString file;    ///< the spilled file in `folder`, or empty
        SpillFolderPtr folder;
        std::size_t fileBytes = 0;
        bool spilling = false; ///< being written: stays in memory until that ends
        bool pinned = false;   ///< frame 0 that could not be spilled: stays in memory
    };

    void drop(std::map<int, Entry>::iterator it);
    bool makeDiskRoom(std::size_t bytes);

    mutable std::mutex mMutex;
    std::map<int, Entry> mFrames;
    SpillFolderPtr mFolder;
    std::size_t mMemoryBudget;
    std::size_t mDiskBudget;
    std::size_t mMemoryBytes = 0;
    std::size_t mDiskBytes = 0;
    std::uint64_t mTag = 0;
    std::uint64_t mSerial = 0; ///< numbers spilled files, so a rewritten frame has a new name
    /// Frames read or being read from disk, by file: repeated asks read once, and a prefetch
    /// in flight is waited for rather than read twice. The newest kReadBacks stay.
    std::shared_future<FramePtr> readBack(int frame, const Entry &entry, bool background) const;
    static constexpr std::size_t kReadBacks = 3;
    mutable std::deque<std::pair<QString, std::shared_future<FramePtr>>> mReadBacks;
};

} // namespace plume

Q_DECLARE_METATYPE(plume::FramePtr)
