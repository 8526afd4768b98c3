// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/framecache.h>

#include <ui/simulation/framefile.h>

#include <QThreadPool>

#include <random>

namespace plume {

namespace {

std::uint64_t newTag()
{
    std::random_device random;
    return (std::uint64_t(random()) << 32) ^ std::uint64_t(random());
}

} // namespace

std::size_t FrameVolume::bytes() const
{
    std::size_t total = sizeof(FrameVolume) + solids.count();
    for (const sim::ScalarGrid &g : fields)
        total += g.bytes();
    return total;
}

std::size_t FrameData::bytes() const
{
    std::size_t total = sizeof(FrameData) + solids.count() + (volume ? volume->bytes() : 0)
                        + particles.capacity() * sizeof(float);
    for (const sim::ScalarGrid &g : fields)
        total += g.bytes();
    return total;
}

FrameCache::FrameCache(std::size_t memoryBudget, std::size_t diskBudget)
    : mMemoryBudget(memoryBudget)
    , mDiskBudget(diskBudget)
    , mTag(newTag())
{}

FrameCache::~FrameCache() { clear(); }

void FrameCache::setSpillFolder(SpillFolderPtr folder)
{
    std::lock_guard lock(mMutex);
    mFolder = std::move(folder);
}

void FrameCache::setBudgets(std::size_t memoryBudget, std::size_t diskBudget)
{
    std::lock_guard lock(mMutex);
    mMemoryBudget = memoryBudget;
    mDiskBudget = diskBudget;
}

void FrameCache::insert(FramePtr frame)
{
    {
        std::lock_guard lock(mMutex);
        auto it = mFrames.find(frame->frame);
        if (it != mFrames.end())
            drop(it);
        mMemoryBytes += frame->bytes();
        mFrames[frame->frame].memory = std::move(frame);
    }
    trim();
}

// One victim at a time: the lowest-numbered frame in memory but the newest. Encoding and
// writing happen outside the lock, so the window keeps reading; an entry invalidated or
// replaced meanwhile has its new file deleted.
void FrameCache::trim()
{
    std::unique_lock lock(mMutex);
    while (mMemoryBytes > mMemoryBudget && mFrames.size() > 1) {
        const bool spill = mFolder && mDiskBudget > 0;
        auto victim = mFrames.begin();
        const auto newest = std::prev(mFrames.end());
        while (victim != newest
               && (!victim->second.memory || victim->second.spilling || victim->second.pinned
                   || (!spill && victim->first == 0)))
            ++victim;
        if (victim == newest)
            return;
        if (!spill) {
            drop(victim);
            continue;
        }
        const int number = victim->first;
        const FramePtr frame = victim->second.memory;
        const SpillFolderPtr folder = mFolder;
        const std::uint64_t tag = mTag;
        const QString name = QString("frame-%1-%2.plf").arg(number).arg(++mSerial);
        victim->second.spilling = true;
        lock.unlock();
        const QByteArray bytes = encodeFrame(*frame, tag);
        lock.lock();
        auto current = [&] {
            auto it = mFrames.find(number);
            return it != mFrames.end() && it->second.memory == frame && tag == mTag ? it
                                                                                    : mFrames.end();
        };
        auto it = current();
        if (it == mFrames.end())
            continue;
        bool written = !bytes.isEmpty() && makeDiskRoom(std::size_t(bytes.size()));
        if (written) {
            mDiskBytes += std::size_t(bytes.size()); // reserved while writing
            lock.unlock();
            written = folder->write(name, bytes);
            lock.lock();
            it = current();
            if (it == mFrames.end()) {
                mDiskBytes -= std::size_t(bytes.size());
                folder->remove(name);
                continue;
            }
            if (!written)
                mDiskBytes -= std::size_t(bytes.size());
        }
        it->second.spilling = false;
        if (!written) {
            // No room or no writable folder: the frame is lost, except frame 0.
            if (number == 0)
                it->second.pinned = true;
            else
                drop(it);
            continue;
        }
        it->second.file = name;
        it->second.folder = folder;
        it->second.fileBytes = std::size_t(bytes.size());
        it->second.memory.reset();
        mMemoryBytes -= frame->bytes();
    }
}

// Deletes the lowest-numbered spilled frames (frame 0 stays) until `bytes` more fit on disk.
bool FrameCache::makeDiskRoom(std::size_t bytes)
{
    auto it = mFrames.begin();
    while (mDiskBytes + bytes > mDiskBudget) {
        while (it != mFrames.end() && (it->first == 0 || it->second.memory))
            ++it;
        if (it == mFrames.end())
            return false;
        drop(it++);
    }
    return true;
}

void FrameCache::drop(std::map<int, Entry>::iterator it)
{
    Entry &e = it->second;
    if (!e.file.isEmpty()) {
        std::erase_if(mReadBacks, [&](const auto &r) { return r.first == e.file; });
        e.folder->remove(e.file);
        mDiskBytes -= e.fileBytes;
    }
    if (e.memory)
        mMemoryBytes -= e.memory->bytes();
    mFrames.erase(it);
}

FramePtr FrameCache::at(int frame) const
{
    std::unique_lock lock(mMutex);
    auto it = mFrames.find(frame);
    if (it == mFrames.end())
        return nullptr;
    if (it->second.memory)
        return it->second.memory;
    const QString file = it->second.file;
    const std::shared_future<FramePtr> read = readBack(frame, it->second, false);
    lock.unlock();
    FramePtr result = read.get(); // reads here, or waits for a prefetch under way
    lock.lock();
    it = mFrames.find(frame);
    return it != mFrames.end() && it->second.file == file ? result : nullptr;
}

void FrameCache::prefetch(int frame) const
{
    std::lock_guard lock(mMutex);
    auto it = mFrames.find(frame);
    if (it != mFrames.end() && !it->second.memory && !it->second.spilling)
        readBack(frame, it->second, true);
}

// Under the lock. The read itself runs where the future is first waited on (at()) or on a pool
// thread (prefetch); it needs nothing of the cache, which may be gone by then.
std::shared_future<FramePtr> FrameCache::readBack(int frame, const Entry &entry,
                                                  bool background) const
{
    for (const auto &[file, future] : mReadBacks)
        if (file == entry.file)
            return future;
    auto read = [folder = entry.folder, file = entry.file, tag = mTag, frame] {
        std::optional<QByteArray> bytes = folder->read(file);
        return bytes ? decodeFrame(*bytes, tag, frame) : nullptr;
    };
    std::shared_future<FramePtr> future;
    if (background) {
        auto task = std::make_shared<std::packaged_task<FramePtr()>>(std::move(read));
        future = task->get_future().share();
        QThreadPool::globalInstance()->start([task] { (*task)(); });
    } else {
        future = std::async(std::launch::deferred, std::move(read)).share();
    }
    mReadBacks.emplace_back(entry.file, future);
    if (mReadBacks.size() > kReadBacks)
        mReadBacks.pop_front();
    return future;
}

bool FrameCache::contains(int frame) const
{
    std::lock_guard lock(mMutex);
    return mFrames.count(frame) > 0;
}

bool FrameCache::inMemory(int frame) const
{
    std::lock_guard lock(mMutex);
    auto it = mFrames.find(frame);
    return it != mFrames.end() && it->second.memory;
}

void FrameCache::invalidateAfter(int frame)
{
    std::lock_guard lock(mMutex);
    while (!mFrames.empty() && mFrames.rbegin()->first > frame)
        drop(std::prev(mFrames.end()));
}

void FrameCache::clear()
{
    std::lock_guard lock(mMutex);
    while (!mFrames.empty())
        drop(mFrames.begin());
    mReadBacks.clear();
    mTag = newTag();
}

int FrameCache::last() const
{
    std::lock_guard lock(mMutex);
    return mFrames.empty() ? -1 : mFrames.rbegin()->first;
}

int FrameCache::count() const
{
    std::lock_guard lock(mMutex);
    return int(mFrames.size());
}

CacheUsage FrameCache::usage() const
{
    std::lock_guard lock(mMutex);
    CacheUsage u;
    u.frames = int(mFrames.size());
    for (const auto &[number, e] : mFrames)
        u.onDisk += e.memory ? 0 : 1;
    u.memoryBytes = mMemoryBytes;
    u.diskBytes = mDiskBytes;
    return u;
}

} // namespace plume
