// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmplan.h>

#include <core/farm/farmwedge.h>
#include <core/io/scenereader.h>
#include <core/scene/rasterize.h>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace plume {

namespace {

/// A preset's frame, kBakeRange meaning the bake's.
int presetFrame(int frame, int bakeFrame) { return frame == kBakeRange ? bakeFrame : frame; }

sim::Status planVariation(const FarmPlan &plan, FarmVariation &v)
{
    const SceneReadResult read = readSceneFile(v.scene);
    if (!read.ok)
        return sim::Status::failure(read.error);
    const Scene &scene = read.scene;
    if (sim::Status st = checkScene(scene); !st)
        return sim::Status::failure(v.scene.toStdString() + ": " + st.error);
    if (scene.simulation.params.scheme == sim::Scheme::Ocean)
        return sim::Status::failure(v.scene.toStdString()
                                    + ": an ocean scene bakes maps, not a VDB cache to render "
                                      "from; bake it with plume-cli bake");
    v.folder = QDir(plan.output).filePath(v.name);
    v.firstFrame = scene.simulation.frameStart;
    v.lastFrame = scene.simulation.frameEnd;
    const FlipbookSettings &f = scene.exports.flipbook;
    const ImageSequenceSettings &im = scene.exports.images;
    v.renders = f.enabled || im.enabled;
    if (!v.renders)
        return sim::Status::success();
    // The frames any render needs; the chunks split them.
    int first = v.lastFrame, last = v.firstFrame;
    if (f.enabled) {
        first = std::min(first, presetFrame(f.first, v.firstFrame));
        last = std::max(last, presetFrame(f.last, v.lastFrame));
        v.atlas = f.fileName.empty() ? v.name + "_flipbook" : QString::fromStdString(f.fileName);
    }
    if (im.enabled) {
        first = std::min(first, presetFrame(im.first, v.firstFrame));
        last = std::max(last, presetFrame(im.last, v.lastFrame));
    }
    first = std::max(first, v.firstFrame);
    last = std::min(last, v.lastFrame);
    for (int a = first; a <= last; a += plan.config.framesPerTask)
        v.chunks.push_back({a, std::min(last, a + plan.config.framesPerTask - 1)});
    return sim::Status::success();
}

} // namespace

QString farmStepName(FarmStep step)
{
    switch (step) {
    case FarmStep::Simulate: return "simulate";
    case FarmStep::Render: return "render";
    case FarmStep::Pack: return "pack";
    }
    return "simulate";
}

QString FarmPlan::farmFolder() const { return QDir(output).filePath(kFarmFolder); }

bool FarmPlan::renders() const
{
    return std::any_of(variations.begin(), variations.end(),
                       [](const FarmVariation &v) { return v.renders; });
}

QVector<FarmTask> FarmPlan::tasks(FarmStep step) const
{
    QVector<FarmTask> out;
    for (int k = 0; k < variations.size(); ++k) {
        const FarmVariation &v = variations[k];
        if (step == FarmStep::Simulate) {
            out.push_back({step, int(out.size()), k, {}});
        } else if (v.renders && step == FarmStep::Pack) {
            out.push_back({step, int(out.size()), k, {}});
        } else if (v.renders) {
            for (const FarmChunk &c : v.chunks)
                out.push_back({step, int(out.size()), k, c});
        }
    }
    return out;
}

sim::Status planFarm(const QString &input, const QString &output, const FarmConfig &config,
                     const QString &plumeCli, FarmPlan &plan)
{
    FarmPlan p;
    p.input = QFileInfo(input).absoluteFilePath();
    p.output = QDir::cleanPath(QFileInfo(output).absoluteFilePath());
    p.plumeCli = plumeCli;
    p.config = config;
    if (isFarmWedgePath(input)) {
        FarmWedge manifest;
        if (sim::Status st = readFarmWedge(input, manifest); !st)
            return st;
        for (const FarmWedgeEntry &e : manifest.variations)
            p.variations.push_back(
                {int(p.variations.size()), e.name, e.scene, {}, 0, 0, false, {}, {}});
    } else {
        if (!QFileInfo(input).isFile())
            return sim::Status::failure(input.toStdString() + ": no such scene file");
        p.variations.push_back(
            {0, QFileInfo(input).completeBaseName(), p.input, {}, 0, 0, false, {}, {}});
    }
    if (p.variations.size() > kMaxArrayTasks)
        return sim::Status::failure(QString("%1: %2 variations; one array job takes at most %3")
                                        .arg(input)
                                        .arg(p.variations.size())
                                        .arg(kMaxArrayTasks)
                                        .toStdString());
    for (FarmVariation &v : p.variations) {
        if (sim::Status st = planVariation(p, v); !st)
            return st;
    }
    if (const qsizetype n = p.tasks(FarmStep::Render).size(); n > kMaxArrayTasks)
        return sim::Status::failure(
            QString("%1 render tasks of %2 frames; one array job takes at most %3: raise "
                    "--frames-per-task")
                .arg(n)
                .arg(config.framesPerTask)
                .arg(kMaxArrayTasks)
                .toStdString());
    plan = p;
    return sim::Status::success();
}

QStringList farmTaskArguments(const FarmPlan &plan, const FarmTask &task, const QString &threads)
{
    const FarmVariation &v = plan.variations[task.variation];
    QStringList args{"bake", v.scene};
    switch (task.step) {
    case FarmStep::Simulate:
        args << "-o" << v.folder;
        // A scene that renders bakes its cache here and renders from it later; one that does
        // not is baked whole here.
        if (v.renders)
            args << "--cache-only";
        args << "--checkpoint-every" << QString::number(plan.config.checkpointEvery);
        break;
    case FarmStep::Render:
        args << "--from-cache" << v.folder << "-o" << v.folder << "--chunk"
             << QString("%1:%2").arg(task.chunk.first).arg(task.chunk.last);
        break;
    case FarmStep::Pack: args << "--from-cache" << v.folder << "-o" << v.folder; break;
    }
    args << "--threads" << threads;
    return args;
}

QString farmTaskCommandLine(const FarmPlan &plan, const FarmTask &task)
{
    const QString threads = "$threads";
    QStringList line{"\"$plume_cli\""};
    for (const QString &a : farmTaskArguments(plan, task, threads))
        line << (a == threads ? "\"$threads\"" : shellQuote(a));
    return line.join(' ');
}

QString shellQuote(const QString &text)
{
    static const QRegularExpression plain(R"(^[A-Za-z0-9_@%+=:,./-]+$)");
    if (plain.match(text).hasMatch())
        return text;
    QString quoted = text;
    quoted.replace("'", R"('\'')");
    return "'" + quoted + "'";
}

} // namespace plume
