#include "scenesimulation.h"

#include <QFile>
#include <QSaveFile>

#include <string>

namespace plume {

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
    mApplyAll = true;
    return sim::Status::success();
}

sim::Status SceneSimulation::restart()
{
    const SceneSetup &s = mRasterizer.setup();
    std::string error;
    mSimulation = sim::Simulation::create(s.domain, s.params, s.time, &error);
    mApplyAll = true;
    return mSimulation ? sim::Status::success() : sim::Status::failure(error);
}

sim::Status SceneSimulation::applyInputs(double frame)
{
    if (!mSimulation)
        return sim::Status::failure("no simulation");
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
    QSaveFile file(path);
    const auto size = qint64(bytes.size());
    if (!file.open(QIODevice::WriteOnly)
        || file.write(reinterpret_cast<const char *>(bytes.data()), size) != size || !file.commit())
        return sim::Status::failure(path.toStdString() + ": cannot write the checkpoint: "
                                    + file.errorString().toStdString());
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
