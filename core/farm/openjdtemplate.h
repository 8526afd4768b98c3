// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/farm/farmplan.h>

#include <QByteArray>
#include <QJsonObject>

namespace plume {

// The same job chain as an Open Job Description job template (specification version
// jobtemplate-2023-09, the format AWS Deadline Cloud takes; docs/farm.md): steps Simulate,
// Render (depends on Simulate) and Pack (depends on Render), task parameters Variation and
// Chunk, and the tasks' plume-cli commands in a small bash script embedded in each step. Job
// parameters PlumeCli and Threads default to the submission's plume-cli and --cpus-per-task.
// A Simulate task continues with --resume when its variation's resume record exists (a task
// run again after a cancel), and is canceled NOTIFY_THEN_TERMINATE: SIGTERM, on which
// plume-cli stops between frames with its record in place.

/// The template as a JSON object.
QJsonObject openJdTemplate(const FarmPlan &plan);

/// DIR/.plume-farm/openjd/template.json: a job bundle folder with the template.
QString openJdTemplatePath(const FarmPlan &plan);

/// The template as indented JSON.
QByteArray openJdTemplateJson(const FarmPlan &plan);

} // namespace plume
