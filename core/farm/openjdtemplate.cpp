// SPDX-License-Identifier: Apache-2.0
#include <core/farm/openjdtemplate.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace plume {

namespace {

/// The step's script: arguments plume-cli, threads, then the task's parameters; one case per
/// task runs its command.
QString stepScript(const FarmPlan &plan, FarmStep step)
{
    QString s = "#!/bin/bash\n";
    s += "# Plume farm bake, OpenJD step " + farmStepName(step) + " (plume-cli farm submit)\n";
    s += "set -eu\n";
    for (const QString &line : plan.config.environment)
        s += line + "\n";
    s += "plume_cli=$1\nthreads=$2\n";
    s += step == FarmStep::Render ? "key=\"$3 $4\"\n" : "key=$3\n";
    s += "case \"$key\" in\n";
    for (const FarmTask &t : plan.tasks(step)) {
        const FarmVariation &v = plan.variations[t.variation];
        const QString key =
            step == FarmStep::Render
                ? QString("'%1 %2:%3'").arg(t.variation).arg(t.chunk.first).arg(t.chunk.last)
                : QString::number(t.variation);
        s += QString("%1) out=%2\n   cmd=(%3) ;;\n")
                 .arg(key, shellQuote(v.folder), farmTaskCommandLine(plan, t));
    }
    s += "*) echo \"plume-farm: no task $key\" >&2; exit 2 ;;\nesac\n";
    if (step == FarmStep::Simulate)
        s += "if [ -f \"$out/.plume-bake/bake.json\" ]; then cmd+=(--resume); fi\n";
    s += "echo \"plume-farm: ${cmd[*]}\"\nexec \"${cmd[@]}\"\n";
    return s;
}

QJsonObject stepTemplate(const FarmPlan &plan, FarmStep step, const QString &name,
                         const QString &dependsOn)
{
    const QVector<FarmTask> tasks = plan.tasks(step);
    QJsonArray variations, chunks;
    for (const FarmTask &t : tasks) {
        variations.append(t.variation);
        chunks.append(QString("%1:%2").arg(t.chunk.first).arg(t.chunk.last));
    }
    QJsonArray parameters{
        QJsonObject{{"name", "Variation"}, {"type", "INT"}, {"range", variations}}};
    QJsonObject space;
    if (step == FarmStep::Render) {
        // One task per (variation, chunk) pair: the two lists are walked together.
        parameters.append(QJsonObject{{"name", "Chunk"}, {"type", "STRING"}, {"range", chunks}});
        space.insert("combination", "(Variation, Chunk)");
    }
    space.insert("taskParameterDefinitions", parameters);
    QJsonArray args{"{{Task.File.Run}}", "{{Param.PlumeCli}}", "{{Param.Threads}}",
                    "{{Task.Param.Variation}}"};
    if (step == FarmStep::Render)
        args.append("{{Task.Param.Chunk}}");
    QJsonObject onRun{{"command", "bash"}, {"args", args}};
    if (step == FarmStep::Simulate)
        onRun.insert("cancelation", QJsonObject{{"mode", "NOTIFY_THEN_TERMINATE"},
                                                {"notifyPeriodInSeconds",
                                                 std::min(plan.config.signalGrace, 600)}});
    const QJsonObject file{{"name", "Run"},
                           {"type", "TEXT"},
                           {"filename", farmStepName(step) + ".sh"},
                           {"data", stepScript(plan, step)}};
    QJsonObject out{{"name", name},
                    {"parameterSpace", space},
                    {"script", QJsonObject{{"actions", QJsonObject{{"onRun", onRun}}},
                                           {"embeddedFiles", QJsonArray{file}}}}};
    if (!dependsOn.isEmpty())
        out.insert("dependencies", QJsonArray{QJsonObject{{"dependsOn", dependsOn}}});
    return out;
}

} // namespace

QJsonObject openJdTemplate(const FarmPlan &plan)
{
    const QString name = ("Plume bake " + QFileInfo(plan.input).completeBaseName()).left(128);
    QJsonArray steps{stepTemplate(plan, FarmStep::Simulate, "Simulate", {})};
    if (plan.renders()) {
        steps.append(stepTemplate(plan, FarmStep::Render, "Render", "Simulate"));
        steps.append(stepTemplate(plan, FarmStep::Pack, "Pack", "Render"));
    }
    const QJsonArray parameters{QJsonObject{{"name", "PlumeCli"},
                                            {"type", "STRING"},
                                            {"description", "plume-cli on the workers"},
                                            {"default", plan.plumeCli}},
                                QJsonObject{{"name", "Threads"},
                                            {"type", "INT"},
                                            {"description", "threads of each plume-cli"},
                                            {"default", plan.config.cpusPerTask},
                                            {"minValue", 1}}};
    return {{"specificationVersion", "jobtemplate-2023-09"},
            {"name", name},
            {"description", QString("%1 variation(s) of %2 baked into %3 by plume-cli")
                                .arg(plan.variations.size())
                                .arg(plan.input, plan.output)
                                .left(2048)},
            {"parameterDefinitions", parameters},
            {"steps", steps}};
}

QString openJdTemplatePath(const FarmPlan &plan)
{
    return QDir(plan.farmFolder()).filePath("openjd/template.json");
}

QByteArray openJdTemplateJson(const FarmPlan &plan)
{
    return QJsonDocument(openJdTemplate(plan)).toJson(QJsonDocument::Indented);
}

} // namespace plume
