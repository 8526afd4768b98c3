// SPDX-License-Identifier: Apache-2.0
#include <core/bake/baker.h>

#include <core/bake/bakerecord.h>
#include <core/bake/bakeresume.h>
#include <core/bake/sinks/flipbooksink.h>
#include <core/bake/sinks/flowmapsink.h>
#include <core/bake/sinks/imagesink.h>
#include <core/bake/sinks/meshsink.h>
#include <core/bake/sinks/oceanmapsink.h>
#include <core/bake/sinks/vdbsink.h>

#include <core/render/liquidtexture.h>
#include <core/render/renderer.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/run/simulation.h>

#include <chrono>
#include <memory>
#include <system_error>

namespace plume {

namespace {

/// One run of a plan: the simulation, the resume record and the sinks.
class BakeRun
{
public:
    BakeRun(const Scene &scene, const BakePlan &plan, BakeObserver *observer)
        : mScene(scene)
        , mPlan(plan)
        , mObserver(observer)
        , mResumeDir(plan.settings.outputDirectory / kResumeFolder)
    {}

    BakeResult run()
    {
        if (!prepare())
            return std::move(mResult);
        for (int frame = mStart; frame <= mPlan.lastWritten; ++frame) {
            if (!bakeFrame(frame))
                return std::move(mResult);
        }
        finish();
        return std::move(mResult);
    }

private:
    bool fail(BakeOutcome outcome, std::string message)
    {
        mResult.outcome = outcome;
        mResult.status = sim::Status::failure(std::move(message));
        return false;
    }
    bool fail(std::string message) { return fail(BakeOutcome::Failed, std::move(message)); }
    /// Interrupted or failed to write: the record lets a resumed bake continue.
    bool stop(std::string message)
    {
        const bool record = mPlan.keepRecord || mPlan.settings.resume;
        return fail(record ? BakeOutcome::FailedResumable : BakeOutcome::Failed,
                    std::move(message));
    }
    bool cancel(std::string message)
    {
        const bool record = mPlan.keepRecord || mPlan.settings.resume;
        return fail(record ? BakeOutcome::CancelledResumable : BakeOutcome::Cancelled,
                    std::move(message));
    }
    bool cancelRequested() const { return mObserver && mObserver->cancelRequested(); }

    bool prepare();
    bool prepareRecord();
    void makeSinks(std::vector<RenderedFrame> resumedTiles);
    bool bakeFrame(int frame);
    RenderedFrame render(const sim::Solver &solver);
    bool checkpoint(int frame);
    bool finish();

    const Scene &mScene;
    const BakePlan &mPlan;
    BakeObserver *mObserver;
    const std::filesystem::path mResumeDir;
    BakeResult mResult;
    SceneSimulation mSimulation;
    BakeRecord mRecord;
    int mStart = 0; ///< the first frame to simulate (later when resumed)
    std::vector<std::unique_ptr<BakeSink>> mSinks;
    FrameFields mFields; ///< the render's samples, reused frame to frame
};

/// The folder, the simulation, the resume record, the sinks.
bool BakeRun::prepare()
{
    const BakeSettings &settings = mPlan.settings;
    std::error_code ec;
    std::filesystem::create_directories(settings.outputDirectory, ec);
    if (ec)
        return fail("cannot create output folder '" + settings.outputDirectory.string()
                    + "': " + ec.message());
    if (sim::Status st = mSimulation.setScene(mScene); !st)
        return fail(st.error);
    mRecord = makeBakeRecord(mScene, settings);
    const int frameStart = mScene.simulation.frameStart;
    ResumePoint resume{frameStart, {}};
    if (settings.resume) {
        if (sim::Status st = prepareResume(mPlan, mRecord, frameStart, mSimulation, resume); !st)
            return fail(BakeOutcome::ResumeRefused, st.error);
        mResult.resumedAfter = resume.start - 1;
    } else if (std::filesystem::remove_all(mResumeDir, ec); ec) { // a stale record goes
        return fail("cannot remove the old resume record '" + mResumeDir.string()
                    + "': " + ec.message());
    }
    if (!prepareRecord())
        return false;
    mStart = resume.start;
    makeSinks(std::move(resume.flipbook));
    for (const auto &sink : mSinks) {
        if (sim::Status st = sink->begin(); !st)
            return cancelRequested() ? cancel(st.error) : fail(st.error);
    }
    return true;
}

/// A new bake that keeps a record writes it before its first frame.
bool BakeRun::prepareRecord()
{
    if (!mPlan.keepRecord || mPlan.settings.resume)
        return true;
    std::error_code ec;
    std::filesystem::create_directories(mResumeDir, ec);
    if (ec)
        return fail("cannot create '" + mResumeDir.string() + "': " + ec.message());
    if (sim::Status st = writeBakeRecord(mResumeDir, mRecord); !st)
        return fail(st.error);
    return true;
}

// In the order their files are listed: per frame the ocean maps, VDB, mesh and images, at the
// end the ocean maps' sidecar, the flipbook, the flow map. The flipbook takes the rendered
// frame, so it comes after the images.
void BakeRun::makeSinks(std::vector<RenderedFrame> resumedTiles)
{
    const SceneSetup &setup = mSimulation.setup();
    if (mPlan.oceanMaps.on)
        mSinks.push_back(std::make_unique<OceanMapSink>(mScene, mPlan, mObserver));
    if (mPlan.vdb.on)
        mSinks.push_back(std::make_unique<VdbSink>(mPlan));
    if (mPlan.mesh.on)
        mSinks.push_back(std::make_unique<MeshSink>(mPlan));
    if (mPlan.images.on)
        mSinks.push_back(std::make_unique<ImageSink>(mPlan));
    if (mPlan.flipbook.on)
        mSinks.push_back(
            std::make_unique<FlipbookSink>(mPlan, std::move(resumedTiles), setup.time.frameRate));
    if (mPlan.flowMap.on)
        mSinks.push_back(std::make_unique<FlowMapSink>(mPlan, double(setup.domain.cellSize)));
}

bool BakeRun::bakeFrame(int frame)
{
    if (cancelRequested())
        return cancel("cancelled before frame " + std::to_string(frame));
    const auto start = std::chrono::steady_clock::now();
    const sim::FrameStats stats = mSimulation.advance(frame);
    if (!stats.status)
        return fail(stats.status.error);
    if (const std::string note = sim::pressureTrouble(stats); mObserver && !note.empty())
        mObserver->pressureTrouble(frame, note);
    const bool written = frame >= mPlan.firstWritten;
    if (written) {
        const sim::Solver &solver = mSimulation.solver();
        const bool rendered = mPlan.renders(frame);
        RenderedFrame image;
        if (rendered)
            image = render(solver);
        const BakeFrame out{frame, &solver, rendered ? &image : nullptr};
        for (const auto &sink : mSinks) {
            if (sim::Status st = sink->frame(out, mResult.files); !st)
                return stop(st.error);
        }
    }
    if (!checkpoint(frame))
        return false;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (mObserver && written) {
        if (sim::usesAdaptiveDomain(mSimulation.solver().params()))
            mObserver->adaptiveBox(frame, mSimulation.solver().activeShare());
        mObserver->frameWritten(frame, frame - mPlan.firstWritten + 1,
                                mPlan.lastWritten - mPlan.firstWritten + 1, ms);
    }
    return true;
}

/// The frame for the flipbook and the images: the liquid texture, or the renderer's look.
RenderedFrame BakeRun::render(const sim::Solver &solver)
{
    const RenderSettings &r = mPlan.settings.render;
    if (mPlan.textureLook) {
        const sim::Simulation &s = mSimulation.simulation();
        return liquidTextureFrame(textureOffsets(s.textureCoordinates()),
                                  solver.domain().boundaries, s.frame(), mPlan.texture, r.width,
                                  r.height);
    }
    const SceneSetup &setup = mSimulation.setup();
    sampleFrameFields(solver, r, mPlan.passes.motion, setup.params.ambientTemperature, mFields);
    // Motion vectors are per flipbook frame: the step's worth of simulation frames.
    return renderFrame(mFields, r, mPlan.passes, setup.time.frameRate / float(mPlan.flipbook.step));
}

/// The frame's files are complete: a checkpoint now lets a resumed bake skip it.
bool BakeRun::checkpoint(int frame)
{
    const int every = mPlan.settings.checkpointEvery;
    if (!mPlan.keepRecord || frame >= mPlan.lastWritten
        || (frame - mScene.simulation.frameStart + 1) % every != 0)
        return true;
    const QString path = QString::fromStdString(checkpointPath(mResumeDir).string());
    if (sim::Status st = mSimulation.saveCheckpointFile(path, mRecord.sceneHash); !st)
        return stop(st.error);
    return true;
}

/// The outputs written after the last frame, then the resume record goes.
bool BakeRun::finish()
{
    // The flipbook atlas is written only after its last frame: a cancel now leaves none.
    if (mPlan.flipbook.on && cancelRequested())
        return cancel("cancelled before writing the flipbook");
    for (const auto &sink : mSinks) {
        if (sim::Status st = sink->finish(mResult.files); !st)
            return stop(st.error);
    }
    std::error_code ec;
    if (std::filesystem::remove_all(mResumeDir, ec); ec)
        return fail("the bake is complete, but its resume record '" + mResumeDir.string()
                    + "' cannot be removed: " + ec.message());
    return true;
}

} // namespace

BakeResult runBake(const Scene &scene, const BakePlan &plan, BakeObserver *observer)
{
    return BakeRun(scene, plan, observer).run();
}

BakeResult bakeScene(const Scene &scene, const BakeSettings &settings, BakeObserver *observer)
{
    const PlannedBake planned = planBake(scene, settings);
    if (!planned.ok())
        return BakeResult::stopped(planned.outcome, planned.message);
    return runBake(scene, planned.plan, observer);
}

} // namespace plume
