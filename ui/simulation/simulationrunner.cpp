// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/simulationrunner.h>

#include <core/io/scenehash.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <limits>

namespace plume {

namespace {

constexpr std::size_t kNoVersion = std::numeric_limits<std::size_t>::max();

/// The z-slice `k` of a field (the field itself, moved, when it has one slice).
void takeSlice(sim::ScalarGrid &full, int k, sim::ScalarGrid &out)
{
    const sim::Int3 n = full.size();
    if (n.z == 1) {
        out.swap(full);
        return;
    }
    out.reshape({n.x, n.y, 1}, full.offset());
    std::copy_n(full.data() + full.strideZ() * std::size_t(k), full.strideZ(), out.data());
}

/// The smallest and the largest value of a field, with zero among them (NaN is skipped), its
/// rows in parallel: min and max give the same answer in any order.
std::pair<float, float> rangeWithZero(const sim::ScalarGrid &field)
{
    const sim::Int3 n = field.size();
    std::vector<std::pair<float, float>> rows(std::size_t(n.y) * std::size_t(n.z));
    sim::forEachRow(n, [&](int j, int k) {
        const float *row = field.data() + field.index(0, j, k);
        float lo = 0.f, hi = 0.f;
        for (int i = 0; i < n.x; ++i) {
            lo = std::min(lo, row[i]);
            hi = std::max(hi, row[i]);
        }
        rows[std::size_t(j) + std::size_t(n.y) * std::size_t(k)] = {lo, hi};
    });
    std::pair<float, float> range{0.f, 0.f};
    for (const auto &[lo, hi] : rows) {
        range.first = std::min(range.first, lo);
        range.second = std::max(range.second, hi);
    }
    return range;
}

} // namespace

SimulationRunner::SimulationRunner(std::shared_ptr<FrameCache> cache, QObject *parent)
    : QObject(parent)
    , mCache(std::move(cache))
{}

SimulationRunner::~SimulationRunner() = default;

void SimulationRunner::load(const Scene &scene)
{
    mVersions = {{0, scene}};
    mFrameEnd = scene.simulation.frameEnd;
    restart();
}

void SimulationRunner::reset()
{
    if (mVersions.empty())
        return;
    mVersions = {{0, mVersions.back().scene}};
    restart();
}

void SimulationRunner::setScene(const Scene &scene, int frame)
{
    if (mVersions.empty() || !mLoop.ready() || needsNewGrids(mVersions.back().scene, scene)) {
        load(scene);
        return;
    }
    if (sim::Status st = checkScene(scene); !st) {
        Q_EMIT failed(QString::fromStdString(st.error));
        return;
    }
    mFrameEnd = scene.simulation.frameEnd;
    frame = std::clamp(frame, 0, mTarget);
    while (mVersions.size() > 1 && mVersions.back().frame >= frame)
        mVersions.pop_back();
    if (mVersions.back().frame >= frame)
        mVersions.back() = {mVersions.back().frame, scene, std::nullopt};
    else
        mVersions.push_back({frame, scene});
    mApplied = kNoVersion;
    if (frame < mTarget) {
        mCache->invalidateAfter(frame);
        mTarget = frame;
        Q_EMIT headChanged(frame);
    }
    dropCheckpointsAfter(frame);
    if (frame < mLoop.simulation().frame() && !resumeBefore(frame)) {
        // No checkpoint: rebuild the state at `frame` by re-simulating from frame 0.
        if (sim::Status st = mLoop.restart(); !st) {
            fail(st.error);
            return;
        }
    }
    schedule();
}

void SimulationRunner::setCheckpoints(int interval, std::size_t budgetBytes)
{
    mCheckpointInterval = std::max(0, interval);
    mCheckpointBudget = budgetBytes;
    fitCheckpoints();
}

std::vector<int> SimulationRunner::checkpointFrames() const
{
    std::vector<int> frames;
    for (const auto &[frame, c] : mCheckpoints)
        frames.push_back(frame);
    return frames;
}

// The solver's state after the frame just simulated, tagged with the version it ran under.
void SimulationRunner::takeCheckpoint()
{
    Version &v = mVersions[mApplied];
    if (!v.hash)
        v.hash = sceneHash(v.scene);
    Checkpoint c{mApplied, {}};
    // A state that cannot be saved (a failed frame) only means no checkpoint here.
    if (!mLoop.saveCheckpoint(*v.hash, c.data))
        return;
    c.data.shrink_to_fit();
    mCheckpoints[mLoop.simulation().frame()] = std::move(c);
    fitCheckpoints();
}

// The nearest checkpoint at or before `frame` becomes the solver's state; its version's inputs
// are handed over again at the next frame. False when there is none that restores.
bool SimulationRunner::resumeBefore(int frame)
{
    for (auto it = mCheckpoints.upper_bound(frame); it != mCheckpoints.begin();) {
        --it;
        const Checkpoint &c = it->second;
        if (mLoop.restoreCheckpoint(c.data, *mVersions[c.version].hash,
                                    sim::CheckpointMatch::SameGrid)) {
            mApplied = kNoVersion;
            return true;
        }
        it = mCheckpoints.erase(it); // damaged: try an earlier one
    }
    publishCheckpointUse();
    return false;
}

void SimulationRunner::dropCheckpointsAfter(int frame)
{
    mCheckpoints.erase(mCheckpoints.upper_bound(frame), mCheckpoints.end());
    publishCheckpointUse();
}

// Past the budget, the checkpoint (but the newest) whose neighbours are closest goes: frame 0
// needs none (it restarts), so the first one's earlier neighbour is frame 0.
void SimulationRunner::fitCheckpoints()
{
    auto bytes = [this] {
        std::size_t total = 0;
        for (const auto &[frame, c] : mCheckpoints)
            total += c.data.capacity();
        return total;
    };
    while (!mCheckpoints.empty() && bytes() > mCheckpointBudget) {
        if (mCheckpoints.size() == 1) {
            mCheckpoints.clear();
            break;
        }
        auto victim = mCheckpoints.begin();
        int narrowest = std::numeric_limits<int>::max();
        int previous = 0;
        for (auto it = mCheckpoints.begin(); std::next(it) != mCheckpoints.end(); ++it) {
            const int span = std::next(it)->first - previous;
            if (span < narrowest) {
                narrowest = span;
                victim = it;
            }
            previous = it->first;
        }
        mCheckpoints.erase(victim);
    }
    publishCheckpointUse();
}

void SimulationRunner::publishCheckpointUse()
{
    std::size_t total = 0;
    for (const auto &[frame, c] : mCheckpoints)
        total += c.data.capacity();
    mCheckpointCount = int(mCheckpoints.size());
    mCheckpointBytes = total;
}

void SimulationRunner::setFrameEnd(int frameEnd) { mFrameEnd = frameEnd; }

void SimulationRunner::play()
{
    if (mFailed || mPlaying)
        return;
    mPlaying = true;
    Q_EMIT playingChanged(true);
    schedule();
}

void SimulationRunner::pause()
{
    mStepping = false;
    if (!mPlaying)
        return;
    mPlaying = false;
    Q_EMIT playingChanged(false);
}

void SimulationRunner::step()
{
    pause();
    if (mFailed)
        return;
    mStepping = true;
    schedule();
}

void SimulationRunner::restart()
{
    mCache->clear();
    mCheckpoints.clear();
    publishCheckpointUse();
    mFailed = false;
    mTarget = 0;
    mApplied = kNoVersion;
    // The window keeps every frame's whole volume (FrameCache): above 512^3 cells, which only
    // the adaptive domain allows, that is more than a desktop holds.
    const Scene &scene = mVersions.front().scene;
    if (const sim::Int3 n = domainCells(scene.domain); n.volume() > kMaxCells) {
        fail("the window simulates at most 512^3 cells (this domain: " + std::to_string(n.x) + " x "
             + std::to_string(n.y) + " x " + std::to_string(n.z)
             + "); preview it at a lower resolution, bake it with plume-cli bake");
        return;
    }
    if (sim::Status st = mLoop.setScene(scene); !st) {
        fail(st.error);
        return;
    }
    // Frame 0 shows the obstacles already: apply the inputs of frame 1.
    if (!applyVersion(0, 1))
        return;
    mCache->insert(capture(sim::FrameStats{}));
    Q_EMIT headChanged(0);
    Q_EMIT frameReady(0);
    schedule();
}

void SimulationRunner::schedule()
{
    if (mQueued || !mLoop.ready() || mFailed)
        return;
    if (mLoop.simulation().frame() >= mTarget && !mPlaying && !mStepping)
        return;
    mQueued = true;
    QMetaObject::invokeMethod(this, &SimulationRunner::runFrame, Qt::QueuedConnection);
}

// One frame per event-loop turn, so that queued edits, pause and reset get through.
void SimulationRunner::runFrame()
{
    mQueued = false;
    if (!mLoop.ready() || mFailed)
        return;
    const bool replaying = mLoop.simulation().frame() < mTarget;
    if (!replaying && !mPlaying && !mStepping)
        return;
    if (!advance())
        return;
    const int frame = mLoop.simulation().frame();
    if (frame > mTarget) {
        mTarget = frame;
        mStepping = false;
        Q_EMIT headChanged(frame);
        Q_EMIT frameReady(frame);
        // The scene's range is simulated: stop (the controller then loops over the cache).
        if (mPlaying && frame >= mFrameEnd)
            pause();
    }
    schedule();
}

bool SimulationRunner::advance()
{
    const int next = mLoop.simulation().frame() + 1;
    std::size_t version = 0;
    for (std::size_t v = 0; v < mVersions.size(); ++v)
        if (mVersions[v].frame < next)
            version = v;
    if (!applyVersion(version, next))
        return false;
    const sim::FrameStats stats = mLoop.simulation().advanceFrame();
    ++mFramesSimulated;
    if (!stats.status) {
        fail("frame " + std::to_string(next) + ": " + stats.status.error);
        return false;
    }
    if (!stats.smokeAtSides.empty())
        Q_EMIT smokeAtSides(stats.frame, QString::fromStdString(stats.smokeAtSides));
    if (!mCache->contains(next))
        mCache->insert(capture(stats));
    if (mCheckpointInterval > 0 && next % mCheckpointInterval == 0 && !mCheckpoints.count(next))
        takeCheckpoint();
    return true;
}

// A new version replaces every input and parameter; the same version only updates what its
// animation changed.
bool SimulationRunner::applyVersion(std::size_t version, int nextFrame)
{
    if (version != mApplied) {
        if (sim::Status st = mLoop.changeScene(mVersions[version].scene); !st) {
            fail(st.error);
            return false;
        }
        mApplied = version;
    }
    if (sim::Status st = mLoop.applyInputs(nextFrame); !st) {
        fail(st.error);
        return false;
    }
    return true;
}

FramePtr SimulationRunner::capture(const sim::FrameStats &stats) const
{
    auto frame = std::make_shared<FrameData>();
    const sim::Solver &solver = mLoop.simulation().solver();
    frame->frame = mLoop.simulation().frame();
    frame->time = mLoop.simulation().time();
    frame->domain = solver.sampleDomain();
    frame->msPerStep = stats.milliseconds / std::max(1, stats.substeps);
    frame->activeShare = solver.activeShare();
    frame->substeps = stats.substeps;
    frame->pressureIterations = stats.pressureIterations;
    frame->pressureResidual = stats.pressureResidual;
    frame->pressureTrouble = sim::pressureTrouble(stats);
    const sim::Int3 n = frame->domain.cells;
    const int slice = n.z / 2;
    // In 3D the whole grids go into the volume (the slice views and the volume view read it).
    std::shared_ptr<FrameVolume> volume = n.z > 1 ? std::make_shared<FrameVolume>() : nullptr;
    sim::ScalarGrid scratch;
    auto take = [&](sim::FieldKind kind, DisplayField field) {
        sim::ScalarGrid &full = volume ? volume->fields[int(field)] : scratch;
        solver.sample(kind, full);
        std::tie(frame->minimum[int(field)], frame->maximum[int(field)]) = rangeWithZero(full);
        takeSlice(full, slice, frame->fields[int(field)]);
    };
    take(sim::FieldKind::Density, DisplayField::Density);
    take(sim::FieldKind::Temperature, DisplayField::Temperature);
    if (solver.hasDye()) {
        take(sim::FieldKind::DyeRed, DisplayField::DyeRed);
        take(sim::FieldKind::DyeGreen, DisplayField::DyeGreen);
        take(sim::FieldKind::DyeBlue, DisplayField::DyeBlue);
    }
    take(sim::FieldKind::VelocityX, DisplayField::VelocityX);
    take(sim::FieldKind::VelocityY, DisplayField::VelocityY);
    if (volume)
        take(sim::FieldKind::VelocityZ, DisplayField::VelocityZ);
    take(sim::FieldKind::Speed, DisplayField::Speed);
    take(sim::FieldKind::Vorticity, DisplayField::Vorticity);
    take(sim::FieldKind::Pressure, DisplayField::Pressure);
    take(sim::FieldKind::Divergence, DisplayField::Divergence);
    if (solver.hasCombustion()) {
        take(sim::FieldKind::Fuel, DisplayField::Fuel);
        take(sim::FieldKind::Flame, DisplayField::Flame);
    }
    if (solver.params().scheme == sim::Scheme::Ocean) {
        take(sim::FieldKind::Height, DisplayField::Height);
        take(sim::FieldKind::DisplacementX, DisplayField::DisplacementX);
        take(sim::FieldKind::DisplacementY, DisplayField::DisplacementY);
        take(sim::FieldKind::NormalX, DisplayField::NormalX);
        take(sim::FieldKind::NormalY, DisplayField::NormalY);
        take(sim::FieldKind::NormalZ, DisplayField::NormalZ);
        take(sim::FieldKind::Foam, DisplayField::Foam);
    }
    // Liquid texture offsets (2D only): copied, with their ranges.
    const sim::AdvectedCoordinates &coords = mLoop.simulation().textureCoordinates();
    if (coords.enabled() && !volume) {
        const DisplayField offsets[4] = {DisplayField::TextureOffset0X,
                                         DisplayField::TextureOffset0Y,
                                         DisplayField::TextureOffset1X,
                                         DisplayField::TextureOffset1Y};
        for (int g = 0; g < 4; ++g) {
            const sim::ScalarGrid &o = coords.offset(g / 2, g % 2);
            frame->fields[int(offsets[g])] = o;
            const auto [lo, hi] = std::minmax_element(o.data(), o.data() + o.count());
            frame->minimum[int(offsets[g])] = o.count() ? *lo : 0.f;
            frame->maximum[int(offsets[g])] = o.count() ? *hi : 0.f;
        }
    }
    if (const sim::ParticleSet *particles = solver.particles()) {
        // Compactly: float positions and one speed each.
        frame->particleRadius = particles->radius;
        frame->particles.resize(4 * particles->size());
        float fastest = 0.f;
        for (std::size_t p = 0; p < particles->size(); ++p) {
            const sim::Vec3 x = particles->position[p];
            const float speed = length(particles->velocity[p]);
            fastest = std::max(fastest, speed);
            float *out = frame->particles.data() + 4 * p;
            out[0] = x.x;
            out[1] = x.y;
            out[2] = x.z;
            out[3] = speed;
        }
        frame->maxParticleSpeed = fastest;
    }
    // The solids are the simulation's cells; with upres each fine cell takes its cell's.
    const sim::FlagGrid &solids = mLoop.setup().solids;
    const sim::Int3 c = solids.size();
    const sim::Int3 f{n.x / std::max(c.x, 1), n.y / std::max(c.y, 1), n.z / std::max(c.z, 1)};
    auto solidAt = [&](int i, int j, int k) { return solids.isSolid(i / f.x, j / f.y, k / f.z); };
    frame->solids.reshape({n.x, n.y, 1});
    for (int j = 0; j < n.y; ++j)
        for (int i = 0; i < n.x; ++i)
            frame->solids.setSolid(i, j, 0, solidAt(i, j, slice));
    if (volume) {
        if (f == sim::Int3{1, 1, 1}) {
            volume->solids = solids;
        } else {
            volume->solids.reshape(n);
            for (int k = 0; k < n.z; ++k)
                for (int j = 0; j < n.y; ++j)
                    for (int i = 0; i < n.x; ++i)
                        volume->solids.setSolid(i, j, k, solidAt(i, j, k));
        }
        frame->volume = std::move(volume);
    }
    return frame;
}

void SimulationRunner::fail(const std::string &message)
{
    mFailed = true;
    mStepping = false;
    if (mPlaying) {
        mPlaying = false;
        Q_EMIT playingChanged(false);
    }
    Q_EMIT failed(QString::fromStdString(message));
}

bool SimulationRunner::needsNewGrids(const Scene &a, const Scene &b)
{
    const sim::SimParams &p = a.simulation.params, &q = b.simulation.params;
    return !(a.domain == b.domain) || p.scheme != q.scheme || p.stamNumeric != q.stamNumeric
           || p.adaptiveDomain != q.adaptiveDomain || p.upres.factor != q.upres.factor;
}

} // namespace plume
