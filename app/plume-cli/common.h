// SPDX-License-Identifier: Apache-2.0
#pragma once

// What plume-cli's commands share: exit codes, parsing helpers, reading a scene, the bake's
// progress line.

#include <core/bake/bakesettings.h>
#include <core/scene/scene.h>
#include <core/sim/base/param.h>

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>

namespace plume::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitMemory = 3;

/// The exit code of a bake that ended with `outcome`: 0 done; 1 failed or interrupted while
/// running; 2 bad usage or scene, or --resume refused; 3 the grid does not fit in memory.
int exitCode(BakeOutcome outcome);

/// Prints "plume-cli: MESSAGE" and the hint to --help; returns kExitUsage.
int usageError(const QString &message);

bool parsePositiveInt(const QString &text, int &out);

/// Reads `text` as a number within `p` (the table that the scene reader checks too).
template<class T>
bool parseParam(const QString &text, const sim::Param &p, T &out)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !p.contains(v))
        return false;
    out = T(v);
    return true;
}

/// Reads `text` as one of an enum's names.
template<class E, std::size_t N>
bool parseName(const QString &text, const sim::EnumNames<E, N> &names, E &out)
{
    return names.parse(text.toStdString(), out);
}

/// Parses "A:B" (inclusive) or "A".
bool parseFrames(const QString &text, int &first, int &last);

/// Parses "AxB" (e.g. 8x8 or 256x256) into two integers within their ranges.
bool parsePair(const QString &text, const sim::Param &pa, int &a, const sim::Param &pb, int &b);

/// The one argument a command takes after its name: how --help names and describes it, and
/// what the usage error calls it.
struct CommandArgument
{
    QString name = "scene";
    QString help = "The scene file (.plume).";
    QString what = "scene file";
};

/// Parses a command's options (added to `parser` before) and its one argument; prints --help.
/// Returns an exit code when done already (help printed, or a usage error).
std::optional<int> parseCommand(QCommandLineParser &parser, const QStringList &arguments,
                                const QString &command, const QString &description,
                                const CommandArgument &argument = {});

/// Reads a scene, printing warnings; prints the error and returns nullopt when it is refused.
std::optional<Scene> loadScene(const QString &path, bool quiet);

/// Ctrl-C and SIGTERM stop a bake between frames (ProgressLine::cancelRequested()).
void catchInterrupts();

/// The bake's progress line on stderr: frame, percent, time per frame and ETA.
class ProgressLine : public BakeObserver
{
public:
    /// `show`: the progress line; `quiet`: no warnings either (errors still go out).
    explicit ProgressLine(bool show, bool quiet = false)
        : mShow(show)
        , mQuiet(quiet)
    {}

    void frameWritten(int frame, int done, int total, double milliseconds) override;
    void frameRendered(int frame, int done, int total, double milliseconds) override;
    void adaptiveBox(int, double share) override { mBoxShare = share; }
    void pressureTrouble(int frame, const std::string &note) override;
    void smokeAtSides(int frame, const std::string &note) override;
    bool cancelRequested() override;

    double totalMs() const { return mTotalMs; }

private:
    bool mShow;
    bool mQuiet;
    double mTotalMs = 0.0;
    double mRenderMs = 0.0;  ///< effect framing: the renders after the simulation
    double mBoxShare = -1.0; ///< the adaptive box's share of the domain; < 0 without one
};

} // namespace plume::cli
