// SPDX-License-Identifier: Apache-2.0
#include <core/export/exrimage.h>

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfOutputFile.h>

#include <algorithm>
#include <cstring>
#include <exception>

namespace plume {

namespace {

/// An OpenEXR output stream into memory, so the file can be written atomically afterwards.
class MemoryStream : public Imf::OStream
{
public:
    MemoryStream()
        : Imf::OStream("memory")
    {}
    void write(const char c[], int n) override
    {
        const std::size_t end = mPosition + std::size_t(n);
        if (end > std::size_t(mBytes.size()))
            mBytes.resize(qsizetype(end));
        std::memcpy(mBytes.data() + mPosition, c, std::size_t(n));
        mPosition = end;
    }
    uint64_t tellp() override { return mPosition; }
    void seekp(uint64_t pos) override { mPosition = std::size_t(pos); }
    const QByteArray &bytes() const { return mBytes; }

private:
    QByteArray mBytes;
    std::size_t mPosition = 0;
};

} // namespace

const char *exrChannelName(int channels, int c)
{
    static const char *const rgba[] = {"R", "G", "B", "A"};
    return channels == 1 ? "Y" : rgba[std::clamp(c, 0, 3)];
}

sim::Status exrBytes(const FloatImage &image, ExrPrecision precision, QByteArray &out)
{
    if (image.width < 1 || image.height < 1 || image.channels < 1 || image.channels > 4
        || image.pixels.size() != std::size_t(image.width) * image.height * image.channels)
        return sim::Status::failure("EXR: the image is empty or its size does not match");
    try {
        const bool half = precision == ExrPrecision::Half;
        const Imf::PixelType type = half ? Imf::HALF : Imf::FLOAT;
        Imf::Header header(image.width, image.height);
        header.compression() = Imf::ZIP_COMPRESSION;
        const int n = image.channels;
        for (int c = 0; c < n; ++c)
            header.channels().insert(exrChannelName(n, c), Imf::Channel(type));
        // Half channels are converted here (round to nearest), so OpenEXR stores them as given.
        std::vector<Imath::half> halves;
        if (half) {
            halves.resize(image.pixels.size());
            std::transform(image.pixels.begin(), image.pixels.end(), halves.begin(),
                           [](float v) { return Imath::half(v); });
        }
        const std::size_t size = half ? sizeof(Imath::half) : sizeof(float);
        char *base = half ? reinterpret_cast<char *>(halves.data())
                          : const_cast<char *>(reinterpret_cast<const char *>(image.pixels.data()));
        Imf::FrameBuffer frame;
        for (int c = 0; c < n; ++c)
            frame.insert(exrChannelName(n, c),
                         Imf::Slice(type, base + c * size, size * n, size * n * image.width));
        MemoryStream stream;
        {
            Imf::OutputFile file(stream, header, 1);
            file.setFrameBuffer(frame);
            file.writePixels(image.height);
        }
        out = stream.bytes();
    } catch (const std::exception &e) {
        return sim::Status::failure(std::string("EXR: ") + e.what());
    }
    return sim::Status::success();
}

sim::Status readExr(const QString &path, FloatImage &out)
{
    try {
        Imf::InputFile file(path.toLocal8Bit().constData(), 1);
        const Imath::Box2i window = file.header().dataWindow();
        FloatImage image;
        image.width = window.max.x - window.min.x + 1;
        image.height = window.max.y - window.min.y + 1;
        const bool grey = file.header().channels().findChannel("Y") != nullptr;
        image.channels = grey ? 1 : 4;
        image.pixels.assign(std::size_t(image.width) * image.height * image.channels, 0.f);
        Imf::FrameBuffer frame;
        const std::size_t px = sizeof(float) * image.channels;
        char *origin = reinterpret_cast<char *>(image.pixels.data())
                       - (window.min.x + std::ptrdiff_t(window.min.y) * image.width) * px;
        for (int c = 0; c < image.channels; ++c)
            frame.insert(exrChannelName(image.channels, c),
                         Imf::Slice(Imf::FLOAT, origin + c * sizeof(float), px, px * image.width, 1,
                                    1, c == 3 ? 1.0 : 0.0));
        file.setFrameBuffer(frame);
        file.readPixels(window.min.y, window.max.y);
        out = std::move(image);
    } catch (const std::exception &e) {
        return sim::Status::failure(path.toStdString() + ": " + e.what());
    }
    return sim::Status::success();
}

} // namespace plume
