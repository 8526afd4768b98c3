// SPDX-License-Identifier: Apache-2.0
#pragma once

// A full disk on demand: while a FileSizeLimit lives, this process cannot write past `bytes`
// into any file. SIGXFSZ is ignored, so such a write() fails with EFBIG ("File too large"),
// the way a full disk fails with ENOSPC: after a short write, with errno set. The limit and
// the signal's handler are restored on destruction. Works as root too (permission bits do not
// stop root; the file size limit does).

#include <sys/resource.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

namespace plume::test {

class FileSizeLimit
{
public:
    explicit FileSizeLimit(long long bytes)
    {
        mSet = getrlimit(RLIMIT_FSIZE, &mOld) == 0;
        mOldHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit = mOld;
        limit.rlim_cur = rlim_t(bytes);
        mSet = mSet && setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        if (mSet)
            setrlimit(RLIMIT_FSIZE, &mOld);
        std::signal(SIGXFSZ, mOldHandler);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

    /// Whether the limit is in force (a test fails when it is not).
    bool active() const { return mSet; }

    /// The system's text for the failure such a write gives ("File too large").
    static std::string reason() { return std::strerror(EFBIG); }

private:
    rlimit mOld{};
    void (*mOldHandler)(int) = SIG_DFL;
    bool mSet = false;
};

} // namespace plume::test
