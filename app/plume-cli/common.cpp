// SPDX-License-Identifier: Apache-2.0
#include <app/plume-cli/common.h>

#include <core/io/scenereader.h>
#include <core/scene/rasterize.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace plume::cli {

namespace {

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int) { gInterrupted = true; }

} // namespace

int exitCode(BakeOutcome outcome)
{
    switch (outcome) {
    case BakeOutcome::Done: return kExitOk;
    case BakeOutcome::Invalid:
    case BakeOutcome::ResumeRefused: return kExitUsage;
    case BakeOutcome::OutOfMemory: return kExitMemory;
    case BakeOutcome::Failed:
    case BakeOutcome::FailedResumable:
    case BakeOutcome::Cancelled:
    case BakeOutcome::CancelledResumable: break;
    }
    return kExitFailure;
}

int usageError(const QString &message)
{
    std::fprintf(stderr, "plume-cli: %s\n", qPrintable(message));
    std::fprintf(stderr, "Try 'plume-cli --help'.\n");
    return kExitUsage;
}

bool parsePositiveInt(const QString &text, int &out)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < 1)
        return false;
    out = v;
    return true;
}

bool parseFrames(const QString &text, int &first, int &last)
{
    const QStringList parts = text.split(':');
    if (parts.size() > 2)
        return false;
    bool ok1 = false, ok2 = true;
    first = parts[0].toInt(&ok1);
    last = parts.size() == 2 ? parts[1].toInt(&ok2) : first;
    return ok1 && ok2;
}

bool parsePair(const QString &text, const sim::Param &pa, int &a, const sim::Param &pb, int &b)
{
    const QStringList parts = text.toLower().split('x');
    return parts.size() == 2 && parseParam(parts[0], pa, a) && parseParam(parts[1], pb, b);
}

std::optional<int> parseCommand(QCommandLineParser &parser, const QStringList &arguments,
                                const QString &command, const QString &description,
                                const CommandArgument &argument)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addPositionalArgument(command, "The command.");
    parser.addPositionalArgument(argument.name, argument.help);
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return kExitOk;
    }
    if (parser.positionalArguments().size() != 2)
        return usageError(command + " takes exactly one " + argument.what);
    return std::nullopt;
}

/// Reads a scene, printing warnings; prints the error and returns nullopt when it is refused.
std::optional<Scene> loadScene(const QString &path, bool quiet)
{
    SceneReadResult r = readSceneFile(path);
    if (!r.ok) {
        std::fprintf(stderr, "plume-cli: %s\n", r.error.c_str());
        return std::nullopt;
    }
    if (!quiet) {
        for (const ReadWarning &w : r.warnings)
            std::fprintf(stderr, "plume-cli: warning: %s\n", w.message.c_str());
    }
    if (sim::Status st = checkScene(r.scene); !st) {
        std::fprintf(stderr, "plume-cli: %s: %s\n", qPrintable(path), st.error.c_str());
        return std::nullopt;
    }
    return std::move(r.scene);
}

void catchInterrupts()
{
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

void ProgressLine::frameWritten(int frame, int done, int total, double milliseconds)
{
    mTotalMs += milliseconds;
    if (!mShow)
        return;
    const double perFrame = mTotalMs / done / 1000.0;
    const int eta = int(perFrame * (total - done) + 0.5);
    std::fprintf(stderr, "\rframe %d  %d/%d  %3d%%  %.2f s/frame  ETA %d:%02d", frame, done, total,
                 int(100.0 * done / total), perFrame, eta / 60, eta % 60);
    if (mBoxShare >= 0.0) // the adaptive domain: how much of the domain the solve covers
        std::fprintf(stderr, "  box %.1f %%", 100.0 * mBoxShare);
    std::fputs("   ", stderr);
    if (done == total)
        std::fputc('\n', stderr);
    std::fflush(stderr);
}

void ProgressLine::frameRendered(int frame, int done, int total, double milliseconds)
{
    mTotalMs += milliseconds;
    mRenderMs += milliseconds;
    if (!mShow)
        return;
    const double perFrame = mRenderMs / done / 1000.0;
    const int eta = int(perFrame * (total - done) + 0.5);
    std::fprintf(
        stderr,
        "\rrender frame %d (framed to the effect)  %d/%d  %3d%%  %.2f s/frame  ETA %d:%02d   ",
        frame, done, total, int(100.0 * done / total), perFrame, eta / 60, eta % 60);
    if (done == total)
        std::fputc('\n', stderr);
    std::fflush(stderr);
}

void ProgressLine::pressureTrouble(int frame, const std::string &note)
{
    std::fprintf(stderr, "%sframe %d: pressure solve: %s\n", mShow ? "\n" : "", frame,
                 note.c_str());
}

void ProgressLine::smokeAtSides(int frame, const std::string &note)
{
    if (mQuiet)
        return;
    std::fprintf(stderr, "%swarning: frame %d: %s\n", mShow ? "\n" : "", frame, note.c_str());
}

bool ProgressLine::cancelRequested() { return gInterrupted.load(); }

} // namespace plume::cli
