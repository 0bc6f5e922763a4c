// The user-program job of a plan (see programlaunch.h).
#include "app/designer/programlaunch.h"

#include "app/designer/planio.h"

#include <QDir>
#include <QFileInfo>

#include <google/protobuf/util/json_util.h>

namespace tessera::designer {

namespace {
Result<void> invalid(const QString& message) {
    return fail(ErrorCode::InvalidArgument, message.toStdString());
}

/// model.config for the plan's model: config.json as it is, or the built-in model's fields.
Result<google::protobuf::Struct> modelConfig(const v1::PlanFile& plan) {
    google::protobuf::Struct config;
    std::string json = plan.hf_config_json();
    if (json.empty()) {
        google::protobuf::util::JsonPrintOptions opts;
        (void)google::protobuf::util::MessageToJsonString(plan.model(), &json, opts);
    }
    if (!google::protobuf::util::JsonStringToMessage(json, &config).ok()) {
        return fail(ErrorCode::InvalidArgument,
                    "the imported model's config.json is not a JSON object; import it again");
    }
    return config;
}
} // namespace

Result<QStringList> splitArguments(const QString& text) {
    QStringList out;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote) {
                quote = QChar();
            } else if (c == QLatin1Char('\\') && quote == QLatin1Char('"') && i + 1 < text.size() &&
                       QStringLiteral("\"\\$`").contains(text[i + 1])) {
                word += text[++i];
            } else {
                word += c;
            }
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c == QLatin1Char('\\') && i + 1 < text.size()) {
            word += text[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord) {
                out << word;
            }
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull()) {
        return fail(
            ErrorCode::InvalidArgument,
            QStringLiteral("the arguments have an unterminated %1 quote").arg(quote).toStdString());
    }
    if (inWord) {
        out << word;
    }
    return out;
}

Result<v1::JobSpec> jobSpecForProgram(const v1::PlanFile& plan, const ProgramChoice& choice) {
    if (choice.program.trimmed().isEmpty()) {
        return relay(invalid(QStringLiteral("Program: name the program to run on every rank, "
                                            "e.g. /usr/bin/python3")));
    }
    if (choice.launcher != QLatin1String("mpirun") &&
        choice.launcher != QLatin1String("torchrun")) {
        return relay(invalid(
            QStringLiteral("Launcher '%1' is not mpirun or torchrun").arg(choice.launcher)));
    }
    if (!choice.workdir.isEmpty() &&
        (!QDir::isAbsolutePath(choice.workdir) || !QFileInfo(choice.workdir).isDir())) {
        return relay(invalid(QStringLiteral("Working folder '%1' is not a folder on this "
                                            "computer; choose the folder with the program's code")
                                 .arg(choice.workdir)));
    }
    auto config = modelConfig(plan);
    if (!config) {
        return relay(config);
    }
    v1::JobSpec spec = plan.job();
    spec.clear_job_id();
    spec.clear_placement();
    // "python3 train.py": the program and the script it runs, when the first argument is one.
    std::string program = QFileInfo(choice.program.trimmed()).fileName().toStdString();
    if (!choice.arguments.isEmpty() && !choice.arguments.first().startsWith(QLatin1Char('-'))) {
        program += " " + QFileInfo(choice.arguments.first()).fileName().toStdString();
    }
    spec.set_name(runName(program, plan.layout()));
    v1::ModelSpec* model = spec.mutable_model();
    model->Clear();
    model->add_command(choice.program.trimmed().toStdString());
    for (const QString& a : choice.arguments) {
        model->add_command(a.toStdString());
    }
    model->set_launcher(choice.launcher.toStdString());
    model->set_workdir(choice.workdir.toStdString());
    *model->mutable_config() = std::move(*config);
    if (Result<void> drawn = applyDrawnLayout(plan, &spec); !drawn) {
        return relay(drawn);
    }
    return spec;
}

} // namespace tessera::designer
