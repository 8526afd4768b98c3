// SPDX-License-Identifier: Apache-2.0
#include <core/scene/scenesimulation.h>

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include <unistd.h>

namespace plume {

namespace {

/// The advected coordinates' period: 0 (off) without a liquid texture.
int texturePeriod(const Scene &scene)
{
    const LiquidTextureSettings &t = scene.simulation.liquidTexture;
    return t.enabled() ? t.period : 0;
}

/// What a checkpoint's temporary adds to the target's name: mkstemp replaces the six Xs with
/// letters and digits. "tmp-" sets it apart from a user's own "name.backup".
constexpr std::string_view kTemporarySuffix = ".tmp-XXXXXX";

bool isLetterOrDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Removes the temporaries that an earlier saveCheckpointFile of `target` left when its
/// process died before the rename: regular files in the target's folder named as mkstemp
/// names them (the target's name, ".tmp-" and six letters or digits). Anything else, the
/// target itself and other checkpoints' temporaries included, stays. Best effort: a file that
/// cannot be removed now is removed by a later save.
void removeStaleTemporaries(const std::string &target)
{
    namespace fs = std::filesystem;
    const fs::path path(target);
    const std::string prefix = path.filename().string() + ".tmp-";
    const std::size_t length = path.filename().string().size() + kTemporarySuffix.size();
    auto isTemporary = [&](const std::string &name) {
        return name.size() == length && name.starts_with(prefix)
               && std::all_of(name.begin() + std::ptrdiff_t(prefix.size()), name.end(),
                              isLetterOrDigit);
    };
    std::error_code ec;
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code typeError, removeError;
        if (isTemporary(it->path().filename().string())
            && it->symlink_status(typeError).type() == fs::file_type::regular)
            fs::remove(it->path(), removeError);
    }
}

} // namespace

sim::Status SceneSimulation::setScene(const Scene &scene)
{
    mSimulation.reset();
    if (sim::Status st = mRasterizer.setScene(scene); !st)
        return st;
    return restart();
}

sim::Status SceneSimulation::changeScene(const Scene &scene)
{
    if (!mSimulation)
        return setScene(scene);
    if (sim::Status st = mRasterizer.setScene(scene); !st)
        return st;
    const SceneSetup &s = mRasterizer.setup();
    if (sim::Status st = mSimulation->solver().setParams(s.params); !st)
        return st;
    if (sim::Status st = mSimulation->setTimeSettings(s.time); !st)
        return st;
    if (sim::Status st = mSimulation->setTexturePeriod(texturePeriod(scene)); !st)
        return st;
    mApplyAll = true;
    return sim::Status::success();
}

sim::Status SceneSimulation::restart()
{
    const SceneSetup &s = mRasterizer.setup();
    auto made = sim::Simulation::create(s.domain, s.params, s.time);
    mApplyAll = true;
    mSimulation.reset();
    if (!made)
        return made.status();
    mSimulation = made.take();
    if (sim::Status st = mSimulation->setTexturePeriod(texturePeriod(scene())); !st) {
        mSimulation.reset();
        return st;
    }
    // Moving obstacles move within a frame too: with several substeps, substep s of n sees
    // them at frame f - 1 + (s + 1) / n, with the velocity of their motion over that substep.
    mSimulation->setStepHook([this](int substep, int substeps) {
        if (substeps == 1 || !mRasterizer.hasMovingObstacles())
            return sim::Status::success();
        const double frame = mFrame - 1.0 + double(substep + 1) / double(substeps);
        const InputChanges changes = mRasterizer.updateObstacles(frame, 1.0 / substeps);
        return plume::applyInputs(mRasterizer.setup(), changes, mSimulation->solver());
    });
    return sim::Status::success();
}

sim::Status SceneSimulation::applyInputs(double frame)
{
    if (!mSimulation)
        return sim::Status::failure("no simulation");
    mFrame = frame;
    InputChanges changes = mRasterizer.update(frame);
    if (mApplyAll)
        changes = {true, true, true};
    mApplyAll = false;
    return plume::applyInputs(mRasterizer.setup(), changes, mSimulation->solver());
}

sim::FrameStats SceneSimulation::advance(double frame)
{
    sim::FrameStats stats;
    if (sim::Status st = applyInputs(frame); !st) {
        stats.status = sim::Status::failure("frame " + std::to_string(int(frame)) + ": "
                                            + st.error);
        return stats;
    }
    stats = mSimulation->advanceFrame();
    if (!stats.status)
        stats.status = sim::Status::failure("frame " + std::to_string(int(frame)) + ": "
                                            + stats.status.error);
    return stats;
}

sim::Status SceneSimulation::saveCheckpoint(std::uint64_t sceneHash,
                                            std::vector<std::uint8_t> &out) const
{
    if (!mSimulation)
        return sim::Status::failure("no simulation");
    return sim::Checkpoint::save(*mSimulation, sceneHash, out);
}

sim::Status SceneSimulation::restoreCheckpoint(std::span<const std::uint8_t> data,
                                               std::uint64_t sceneHash, sim::CheckpointMatch match)
{
    if (!mSimulation)
        return sim::Status::failure("no simulation");
    if (sim::Status st = sim::Checkpoint::restore(*mSimulation, data, sceneHash, match); !st)
        return st;
    mApplyAll = true;
    return sim::Status::success();
}

sim::Status SceneSimulation::saveCheckpointFile(const QString &path, std::uint64_t sceneHash) const
{
    std::vector<std::uint8_t> bytes;
    if (sim::Status st = saveCheckpoint(sceneHash, bytes); !st)
        return sim::Status::failure(path.toStdString() + ": " + st.error);
    // A temporary file beside the target, renamed over it once complete. Plain POSIX rather
    // than QSaveFile, whose message for a failed write (a full disk, a file size limit) is
    // "Unknown error". A save first removes the temporaries a killed save left behind.
    const std::string target = QFile::encodeName(path).toStdString();
    removeStaleTemporaries(target);
    std::string temporary = target + std::string(kTemporarySuffix);
    const int fd = ::mkstemp(temporary.data());
    int error = fd < 0 ? errno : 0;
    for (std::size_t done = 0; error == 0 && done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n >= 0)
            done += std::size_t(n);
        else if (errno != EINTR)
            error = errno;
    }
    if (fd >= 0 && ::close(fd) != 0 && error == 0)
        error = errno;
    if (error == 0 && ::rename(temporary.c_str(), target.c_str()) != 0)
        error = errno;
    if (error != 0) {
        if (fd >= 0)
            ::unlink(temporary.c_str());
        return sim::Status::failure(path.toStdString()
                                    + ": cannot write the checkpoint: " + std::strerror(error));
    }
    return sim::Status::success();
}

sim::Status SceneSimulation::restoreCheckpointFile(const QString &path, std::uint64_t sceneHash,
                                                   sim::CheckpointMatch match)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(path.toStdString() + ": cannot read the checkpoint: "
                                    + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    const std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t *>(bytes.data()),
                                             std::size_t(bytes.size()));
    if (sim::Status st = restoreCheckpoint(data, sceneHash, match); !st)
        return sim::Status::failure(path.toStdString() + ": " + st.error);
    return sim::Status::success();
}

} // namespace plume
