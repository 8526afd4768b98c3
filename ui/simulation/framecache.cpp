#include "framecache.h"

namespace plume {

std::size_t FrameVolume::bytes() const
{
    std::size_t total = sizeof(FrameVolume) + solids.count();
    for (const sim::ScalarGrid &g : fields)
        total += g.bytes();
    return total;
}

std::size_t FrameData::bytes() const
{
    std::size_t total = sizeof(FrameData) + solids.count() + (volume ? volume->bytes() : 0);
    for (const sim::ScalarGrid &g : fields)
        total += g.bytes();
    return total;
}

FrameCache::FrameCache(std::size_t budgetBytes)
    : mBudget(budgetBytes)
{}

void FrameCache::insert(FramePtr frame)
{
    std::lock_guard lock(mMutex);
    if (frame->volume)
        for (auto &[number, old] : mFrames)
            if (old->volume && number != frame->frame) {
                auto stripped = std::make_shared<FrameData>(*old);
                stripped->volume.reset();
                mBytes -= old->bytes();
                mBytes += stripped->bytes();
                old = std::move(stripped);
            }
    FramePtr &slot = mFrames[frame->frame];
    if (slot)
        mBytes -= slot->bytes();
    mBytes += frame->bytes();
    slot = std::move(frame);
    // Keep frame 0 (the start) and the newest frames.
    while (mBytes > mBudget && mFrames.size() > 2) {
        auto oldest = std::next(mFrames.begin());
        mBytes -= oldest->second->bytes();
        mFrames.erase(oldest);
    }
}

FramePtr FrameCache::at(int frame) const
{
    std::lock_guard lock(mMutex);
    auto it = mFrames.find(frame);
    return it == mFrames.end() ? nullptr : it->second;
}

bool FrameCache::contains(int frame) const
{
    std::lock_guard lock(mMutex);
    return mFrames.count(frame) > 0;
}

void FrameCache::invalidateAfter(int frame)
{
    std::lock_guard lock(mMutex);
    for (auto it = mFrames.upper_bound(frame); it != mFrames.end();) {
        mBytes -= it->second->bytes();
        it = mFrames.erase(it);
    }
}

void FrameCache::clear()
{
    std::lock_guard lock(mMutex);
    mFrames.clear();
    mBytes = 0;
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

} // namespace plume
