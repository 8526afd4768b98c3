// SPDX-License-Identifier: Apache-2.0
#include <core/export/flowmap.h>

#include <core/export/frameimage.h>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace plume {

sim::Status FlowMapAccumulator::add(const sim::Solver &solver)
{
    const sim::Int3 n = solver.sampleDomain().cells;
    if (n.z != 1)
        return sim::Status::failure("a flow map needs a 2D domain (this one is "
                                    + std::to_string(n.z) + " cells deep)");
    if (mFrames == 0) {
        mCells = n;
        for (auto &sum : mSum)
            sum.assign(std::size_t(n.x) * std::size_t(n.y), 0.0);
    } else if (!(n == mCells)) {
        return sim::Status::failure("the flow map's frames differ in size");
    }
    const sim::FieldKind kinds[2] = {sim::FieldKind::VelocityX, sim::FieldKind::VelocityY};
    for (int axis = 0; axis < 2; ++axis) {
        solver.sample(kinds[axis], mScratch);
        for (std::size_t c = 0; c < mSum[axis].size(); ++c)
            mSum[axis][c] += double(mScratch[c]);
    }
    ++mFrames;
    return sim::Status::success();
}

float FlowMapAccumulator::mean(int axis, int i, int j) const
{
    if (mFrames == 0)
        return 0.f;
    return float(mSum[axis][std::size_t(i) + std::size_t(mCells.x) * std::size_t(j)]
                 / double(mFrames));
}

float FlowMapAccumulator::maxSpeed() const
{
    float m = 0.f;
    for (int j = 0; j < (mFrames ? mCells.y : 0); ++j)
        for (int i = 0; i < mCells.x; ++i)
            m = std::max(m, std::hypot(mean(0, i, j), mean(1, i, j)));
    return m;
}

QImage flowMapImage(const FlowMapAccumulator &flow)
{
    if (flow.frames() == 0)
        return {};
    const sim::Int3 n = flow.cells();
    const float vmax = flow.maxSpeed();
    const float inv = vmax > 0.f ? 1.f / vmax : 0.f;
    QImage img(n.x, n.y, QImage::Format_RGBA8888);
    auto byte = [](float v) { return std::clamp(int(std::lround(v * 255.f)), 0, 255); };
    for (int j = 0; j < n.y; ++j) {
        uchar *line = img.scanLine(n.y - 1 - j);
        for (int i = 0; i < n.x; ++i) {
            const float vx = flow.mean(0, i, j) * inv, vy = flow.mean(1, i, j) * inv;
            line[4 * i + 0] = uchar(byte(0.5f + 0.5f * vx));
            line[4 * i + 1] = uchar(byte(0.5f + 0.5f * vy));
            line[4 * i + 2] = uchar(byte(std::hypot(vx, vy)));
            line[4 * i + 3] = 255;
        }
    }
    return img;
}

float decodeFlowMap(int channel, float vmax) { return (float(channel) / 255.f * 2.f - 1.f) * vmax; }

sim::Status writeFlowMap(const FlowMapAccumulator &flow, const FlowMapInfo &info,
                         const std::string &directory, const std::string &baseName,
                         std::vector<std::string> &written)
{
    const QImage image = flowMapImage(flow);
    if (image.isNull())
        return sim::Status::failure("the flow map has no frames to average");
    QJsonObject json;
    json["scene"] = QString::fromStdString(info.sceneName);
    json["image"] = QString::fromStdString(baseName + ".png");
    json["encoding"] = "R = 0.5 + 0.5 vx / vmax, G = 0.5 + 0.5 vy / vmax (+y up), "
                       "B = |v| / vmax, A = 1; row 0 is the domain's top";
    json["vmax"] = double(flow.maxSpeed());
    json["units"] = "world units per second";
    json["frames"] = QJsonArray{info.firstFrame, info.lastFrame};
    json["width"] = flow.cells().x;
    json["height"] = flow.cells().y;
    json["cellSize"] = info.cellSize;
    json["plumeVersion"] = QString::fromStdString(info.plumeVersion);
    const QDir dir(QString::fromStdString(directory));
    const QString png = dir.filePath(QString::fromStdString(baseName + ".png"));
    const QString side = dir.filePath(QString::fromStdString(baseName + ".json"));
    if (sim::Status st = writeFilesAtomically(
            {png, side}, {pngBytes(image), QJsonDocument(json).toJson(QJsonDocument::Indented)});
        !st)
        return st;
    written.push_back(png.toStdString());
    written.push_back(side.toStdString());
    return sim::Status::success();
}

} // namespace plume
