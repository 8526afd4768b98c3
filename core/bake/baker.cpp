// SPDX-License-Identifier: Apache-2.0
#include <core/bake/baker.h>

#include <core/bake/bakefields.h>
#include <core/bake/bakerecord.h>
#include <core/bake/bakeresume.h>
#include <core/bake/sinks/flipbooksink.h>
#include <core/bake/sinks/flowmapsink.h>
#include <core/bake/sinks/imagesink.h>
#include <core/bake/sinks/meshsink.h>
#include <core/bake/sinks/oceanmapsink.h>
#include <core/bake/sinks/vdbsink.h>
#include <core/bake/sinks/vectorfieldsink.h>
#include <core/bake/sinks/volumetexturesink.h>

#include <core/render/framing.h>
#include <core/render/liquidtexture.h>
#include <core/render/renderer.h>
#include <core/scene/scenesimulation.h>
#include <core/sim/run/simulation.h>

#include <QJsonDocument>

#include <chrono>
#include <cstdio>
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
        , mRenderDir(plan.settings.outputDirectory / kRenderFolder)
        , mFramingDir(plan.settings.outputDirectory / kFramingFolder)
        , mFrameRate(scene.simulation.time.frameRate)
        , mAmbient(scene.simulation.params.ambientTemperature)
    {}

    BakeResult run()
    {
        if (!prepare())
            return std::move(mResult);
        for (int frame = mStart; frame <= mPlan.lastWritten; ++frame) {
            if (!(fromCache() ? cacheFrame(frame) : bakeFrame(frame)))
                return std::move(mResult);
        }
        if (!mPlan.settings.chunk)
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

    bool fromCache() const { return !mPlan.settings.fromCache.empty(); }
    /// Effect framing while simulating: frames are rendered after the last one.
    bool deferred() const { return mPlan.framed && !fromCache(); }
    bool prepare();
    bool prepareRecord();
    bool prepareCache();
    void makeSinks(std::vector<RenderedFrame> resumedTiles);
    bool bakeFrame(int frame);
    bool cacheFrame(int frame);
    RenderedFrame render(const sim::Solver &solver);
    RenderedFrame renderFields() const;
    std::filesystem::path keptRenderPath(int frame, const std::string &cacheId) const;
    bool checkpoint(int frame);
    std::filesystem::path framedFieldsPath(int frame) const;
    bool keepFramedFields(int frame);
    bool addFramedBox(const std::filesystem::path &file);
    bool prepareFraming(int resumeStart);
    bool renderFramed();
    bool finish();

    const Scene &mScene;
    const BakePlan &mPlan;
    BakeObserver *mObserver;
    const std::filesystem::path mResumeDir;
    const std::filesystem::path mRenderDir;  ///< a bake from a cache keeps its frames here
    const std::filesystem::path mFramingDir; ///< effect framing keeps its frames' fields here
    BakeResult mResult;
    SceneSimulation mSimulation;
    BakeRecord mRecord;
    int mStart = 0; ///< the first frame to simulate (later when resumed)
    std::vector<std::unique_ptr<BakeSink>> mSinks;
    FrameFields mFields; ///< the render's samples, reused frame to frame
    WorldBox mFramed;    ///< effect framing: the union of the rendered frames' visible boxes
    const float mFrameRate;
    const float mAmbient;
    std::string mRenderKey; ///< fromCache: what decides a kept frame, but the frame's file
    int mDone = 0;          ///< fromCache: frames handled so far
    int mTotal = 0;         ///< fromCache: frames to handle
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
    if (fromCache())
        return prepareCache();
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
    if (mPlan.framed && !prepareFraming(resume.start))
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

/// A bake from a cache: no simulation, no resume record; its rendered frames are kept.
bool BakeRun::prepareCache()
{
    std::error_code ec;
    std::filesystem::create_directories(mRenderDir, ec);
    if (ec)
        return fail("cannot create '" + mRenderDir.string() + "': " + ec.message());
    // What a kept frame depends on besides its cache file: the look, the passes, the motion
    // vectors' frame rate, the ambient temperature, the version that rendered it.
    QJsonObject key = bakeOptionsJson(mPlan.settings).value("export").toObject();
    key.remove("openvdb");
    key.remove("flipbook");
    key.remove("images");
    key["passes"] = QString("%1%2%3%4 %5")
                        .arg(mPlan.passes.motion)
                        .arg(mPlan.passes.sixWay)
                        .arg(mPlan.passes.normals)
                        .arg(mPlan.passes.depth)
                        .arg(double(mPlan.passes.depthThreshold), 0, 'g', 9);
    key["motionRate"] = double(mFrameRate / float(mPlan.flipbook.step));
    key["version"] = QString::fromStdString(mPlan.settings.plumeVersion);
    key["ambientTemperature"] = double(mAmbient);
    if (mPlan.framed) {
        // Every chunk frames the same smoke: the union over all rendered frames' files.
        for (int f = mPlan.firstWritten; f <= mPlan.lastWritten; ++f) {
            if (mPlan.renders(f) && !addFramedBox(cacheFramePath(mPlan.settings, f)))
                return false;
        }
        QString box;
        for (const sim::Vec3 &v : {mFramed.low, mFramed.high})
            box += QString(" %1 %2 %3").arg(v.x, 0, 'g', 9).arg(v.y, 0, 'g', 9).arg(v.z, 0, 'g', 9);
        key["framed"] = box;
    }
    mRenderKey = QJsonDocument(key).toJson(QJsonDocument::Compact).toStdString();
    mStart = mPlan.firstWritten;
    for (int f = mPlan.firstWritten; f <= mPlan.lastWritten; ++f)
        mTotal += mPlan.readsCache(f) ? 1 : 0;
    if (!mPlan.settings.chunk)
        makeSinks({});
    for (const auto &sink : mSinks) {
        if (sim::Status st = sink->begin(); !st)
            return cancelRequested() ? cancel(st.error) : fail(st.error);
    }
    return true;
}

// In the order their files are listed: per frame the ocean maps, VDB, mesh and images, at the
// end the ocean maps' sidecar, the flipbook, the flow map. The flipbook takes the rendered
// frame, so it comes after the images.
void BakeRun::makeSinks(std::vector<RenderedFrame> resumedTiles)
{
    if (mPlan.oceanMaps.on)
        mSinks.push_back(std::make_unique<OceanMapSink>(mScene, mPlan, mObserver));
    if (mPlan.vdb.on)
        mSinks.push_back(std::make_unique<VdbSink>(mPlan));
    if (mPlan.mesh.on)
        mSinks.push_back(std::make_unique<MeshSink>(mPlan));
    if (mPlan.images.on)
        mSinks.push_back(std::make_unique<ImageSink>(mPlan));
    if (mPlan.vectorField.on)
        mSinks.push_back(std::make_unique<VectorFieldSink>(mPlan));
    if (mPlan.volumeTexture.on)
        mSinks.push_back(std::make_unique<VolumeTextureSink>(mPlan));
    if (mPlan.flipbook.on)
        mSinks.push_back(
            std::make_unique<FlipbookSink>(mPlan, std::move(resumedTiles), mFrameRate));
    if (mPlan.flowMap.on)
        mSinks.push_back(
            std::make_unique<FlowMapSink>(mPlan, double(mSimulation.setup().domain.cellSize)));
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
    if (mObserver && !stats.smokeAtSides.empty())
        mObserver->smokeAtSides(frame, stats.smokeAtSides);
    const bool written = frame >= mPlan.firstWritten;
    if (written) {
        const sim::Solver &solver = mSimulation.solver();
        const bool later = deferred() && mPlan.renders(frame); // rendered after the last frame
        const bool rendered = mPlan.renders(frame) && !later;
        // Rendered and meshed as the VDB files hold the frame (bake/bakefields.h), unless the
        // look draws the liquid texture, which needs no fields.
        const bool fields = (rendered && !mPlan.textureLook) || mPlan.mesh.has(frame) || later;
        if (fields)
            simulatedFrameFields(solver, mPlan, mSimulation.setup().params.ambientTemperature,
                                 mFields);
        if (later)
            mFramed.add(visibleBox(mFields, mPlan.settings.render));
        RenderedFrame image;
        if (rendered)
            image = render(solver);
        const BakeFrame out{frame, &solver, fields ? &mFields : nullptr,
                            rendered ? &image : nullptr};
        for (const auto &sink : mSinks) {
            if (later && sink->takesImages())
                continue;
            if (sim::Status st = sink->frame(out, mResult.files); !st)
                return stop(st.error);
        }
        if (later && !keepFramedFields(frame))
            return false;
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

/// <outputDirectory>/.plume-render/<baseName>.<frame:04d>.<key>.frame: a rendered frame of a
/// bake from a cache, kept until the bake is complete. The key hashes the look (mRenderKey),
/// the frame and its cache file's content id, so a frame rendered with another look or from
/// another cache is never used.
std::filesystem::path BakeRun::keptRenderPath(int frame, const std::string &cacheId) const
{
    std::uint64_t h = 0xcbf29ce484222325ull; // FNV-1a, 64 bits
    const std::string text = mRenderKey + "|" + cacheId + "|" + std::to_string(frame);
    for (const char c : text)
        h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(h));
    return mRenderDir / (mPlan.settings.baseName + "." + frameNumber(frame) + "." + key + ".frame");
}

/// A frame of a bake from a cache: the kept render if there is one, else read and render it
/// (and keep it); then the sinks.
bool BakeRun::cacheFrame(int frame)
{
    if (!mPlan.readsCache(frame))
        return true;
    if (cancelRequested())
        return cancel("cancelled before frame " + std::to_string(frame));
    const auto start = std::chrono::steady_clock::now();
    const std::filesystem::path file = cacheFramePath(mPlan.settings, frame);
    bool loaded = false;
    auto load = [&]() -> bool {
        if (loaded)
            return true;
        if (sim::Status st = cachedFrameFields(file, mPlan.cacheDomain, mPlan, mAmbient, mFields);
            !st)
            return fail(st.error);
        loaded = true;
        return true;
    };
    RenderedFrame image;
    const bool rendered = mPlan.renders(frame);
    if (rendered) {
        const auto contentId = vdbContentId(file);
        if (!contentId)
            return fail(contentId.error());
        const std::string &id = contentId.value();
        const std::filesystem::path kept = keptRenderPath(frame, id);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(kept, ec)
            || !loadRenderedFrame(kept, image)) { // unreadable: render it again
            if (!load())
                return false;
            mFields.framed = mFramed;
            image = renderFields();
            if (sim::Status st = saveRenderedFrame(kept, image); !st)
                return stop(st.error);
        }
    }
    if (mPlan.mesh.has(frame) && !mPlan.settings.chunk && !load())
        return false;
    const BakeFrame out{frame, nullptr, loaded ? &mFields : nullptr, rendered ? &image : nullptr};
    for (const auto &sink : mSinks) {
        if (sim::Status st = sink->frame(out, mResult.files); !st)
            return stop(st.error);
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (mObserver)
        mObserver->frameWritten(frame, ++mDone, mTotal, ms);
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
    return renderFields();
}

RenderedFrame BakeRun::renderFields() const
{
    // Motion vectors are per flipbook frame: the step's worth of simulation frames.
    return renderFrame(mFields, mPlan.settings.render, mPlan.passes,
                       mFrameRate / float(mPlan.flipbook.step));
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

/// Effect framing: the file that holds a rendered frame's fields, the bake's own VDB file
/// when it writes one for the frame.
std::filesystem::path BakeRun::framedFieldsPath(int frame) const
{
    if (mPlan.vdb.has(frame))
        return framePath(mPlan.settings, frame);
    return mFramingDir / frameFileName(mPlan.settings.baseName, frame);
}

/// Effect framing: keeps the frame's fields for the render after the simulation (the VDB sink
/// wrote them already when the bake writes the frame's VDB file).
bool BakeRun::keepFramedFields(int frame)
{
    if (mPlan.vdb.has(frame))
        return true;
    if (sim::Status st = writeSolverFrame(mSimulation.solver(), mPlan.settings, frame,
                                          framedFieldsPath(frame));
        !st)
        return stop(st.error);
    return true;
}

/// Reads a frame's fields and adds their visible box to the framing.
bool BakeRun::addFramedBox(const std::filesystem::path &file)
{
    const sim::Domain domain = fromCache() ? mPlan.cacheDomain : sampledDomain(mScene);
    if (sim::Status st = cachedFrameFields(file, domain, mPlan, mAmbient, mFields); !st)
        return fail(st.error);
    mFramed.add(visibleBox(mFields, mPlan.settings.render));
    return true;
}

/// Effect framing: a new bake starts with an empty folder for the frames' fields; a resumed
/// one reads back the frames it simulated before for their boxes.
bool BakeRun::prepareFraming(int resumeStart)
{
    std::error_code ec;
    if (!mPlan.settings.resume) {
        std::filesystem::remove_all(mFramingDir, ec);
        if (ec)
            return fail("cannot remove the old framing folder '" + mFramingDir.string()
                        + "': " + ec.message());
    }
    std::filesystem::create_directories(mFramingDir, ec);
    if (ec)
        return fail("cannot create '" + mFramingDir.string() + "': " + ec.message());
    for (int f = mPlan.firstWritten; f < resumeStart; ++f) {
        if (mPlan.renders(f) && !addFramedBox(framedFieldsPath(f)))
            return fail(BakeOutcome::ResumeRefused,
                        mResult.status.error + "; bake again without --resume to start over");
    }
    return true;
}

/// Effect framing: every rendered frame, read back from its VDB file as a bake from a cache
/// reads it, rendered with the one camera that frames them all, to the images and flipbook.
bool BakeRun::renderFramed()
{
    const sim::Domain domain = sampledDomain(mScene);
    int total = 0, done = 0;
    for (int f = mPlan.firstWritten; f <= mPlan.lastWritten; ++f)
        total += mPlan.renders(f) ? 1 : 0;
    for (int f = mPlan.firstWritten; f <= mPlan.lastWritten; ++f) {
        if (!mPlan.renders(f))
            continue;
        const auto start = std::chrono::steady_clock::now();
        if (cancelRequested())
            return cancel("cancelled before rendering frame " + std::to_string(f));
        if (sim::Status st = cachedFrameFields(framedFieldsPath(f), domain, mPlan, mAmbient,
                                               mFields);
            !st)
            return stop(st.error);
        mFields.framed = mFramed;
        RenderedFrame image = renderFields();
        const BakeFrame out{f, nullptr, &mFields, &image};
        for (const auto &sink : mSinks) {
            if (!sink->takesImages())
                continue;
            if (sim::Status st = sink->frame(out, mResult.files); !st)
                return stop(st.error);
        }
        const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now()
                                                             - start;
        if (mObserver)
            mObserver->frameRendered(f, ++done, total, ms.count());
    }
    return true;
}

/// The outputs written after the last frame, then the resume record goes.
bool BakeRun::finish()
{
    if (deferred() && !renderFramed())
        return false;
    // The flipbook atlas is written only after its last frame: a cancel now leaves none.
    if (mPlan.flipbook.on && cancelRequested())
        return cancel("cancelled before writing the flipbook");
    for (const auto &sink : mSinks) {
        if (sim::Status st = sink->finish(mResult.files); !st)
            return stop(st.error);
    }
    std::error_code ec;
    if (fromCache()) {
        if (std::filesystem::remove_all(mRenderDir, ec); ec)
            return fail("the bake is complete, but its kept frames '" + mRenderDir.string()
                        + "' cannot be removed: " + ec.message());
        return true;
    }
    if (std::filesystem::remove_all(mResumeDir, ec); ec)
        return fail("the bake is complete, but its resume record '" + mResumeDir.string()
                    + "' cannot be removed: " + ec.message());
    if (mPlan.framed && (std::filesystem::remove_all(mFramingDir, ec), ec))
        return fail("the bake is complete, but its framing folder '" + mFramingDir.string()
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
