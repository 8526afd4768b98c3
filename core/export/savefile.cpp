// SPDX-License-Identifier: Apache-2.0
#include <core/export/savefile.h>

namespace plume {

sim::Status writeSaveFile(QSaveFile &file, const char *data, qint64 size)
{
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return sim::Status::failure(file.errorString().toStdString());
    for (qint64 done = 0; done < size;) {
        const qint64 n = file.write(data + done, size - done);
        if (n <= 0) {
            const std::string reason = file.errorString().toStdString();
            file.cancelWriting();
            return sim::Status::failure(reason);
        }
        done += n;
    }
    return sim::Status::success();
}

} // namespace plume
