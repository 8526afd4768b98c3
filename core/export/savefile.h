// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QSaveFile>

namespace plume {

/// Opens `file` and writes all `size` bytes of `data` into its temporary file; the caller then
/// commits or cancels. On failure the message is the system's reason ("No space left on
/// device", "File too large", "Permission denied"), without the path, and nothing has been
/// committed.
///
/// Why not a plain open() + write(): a buffered QSaveFile reports a short write (the disk
/// filled up part-way) as "Unknown error", and a write held in its buffer that fails when
/// commit() flushes it can even leave a truncated file behind a successful commit. So the file
/// is opened unbuffered, and after a short write the rest is written again: that write fails
/// at once and carries errno's reason.
sim::Status writeSaveFile(QSaveFile &file, const char *data, qint64 size);

} // namespace plume
