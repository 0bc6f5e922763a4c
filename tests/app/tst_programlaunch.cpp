// "Launch with program…" without a cluster: arguments split as a shell would, the spec carries
// the program, the drawn layout and the model description (built-in or imported), bad choices
// are refused with what to fix, and the dialog checks its fields and remembers the last choice.
#include "app/designer/programlaunch.h"
#include "app/designer/programlaunchdialog.h"
#include "worker/common/spec_io.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::designer;

namespace {
const char* kTinyLlama = "{\"model_type\": \"llama\", \"hidden_size\": 512, "
                         "\"num_hidden_layers\": 4, \"num_attention_heads\": 8, "
                         "\"vocab_size\": 32000, \"max_position_embeddings\": 1024}";

v1::PlanFile gptPlan() {
    v1::PlanFile plan;
    plan.set_name("text-gpt");
    v1::ModelSpec* m = plan.mutable_model();
    m->set_family("gpt");
    m->set_dim(96);
    m->set_blocks(3);
    m->set_heads(4);
    m->set_context(64);
    v1::Layout* l = plan.mutable_layout();
    l->set_data_parallel(1);
    l->set_micro_batches(4);
    l->set_schedule(v1::PIPELINE_SCHEDULE_GPIPE);
    for (auto [first, last] : {std::pair{0, 2}, std::pair{3, 5}}) {
        v1::Stage* s = l->add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
    }
    plan.mutable_settings()->set_zero_stage(3);
    plan.mutable_settings()->set_global_batch(32);
    plan.mutable_job()->mutable_dataset()->set_name("text");
    plan.mutable_job()->mutable_dataset()->set_path("/usr/share/perl/5.36.0/pod/perldiag.pod");
    plan.mutable_job()->mutable_training()->set_max_steps(2000);
    return plan;
}
} // namespace

class TestProgramLaunch : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings of the dialog stay the test's
        QVERIFY(m_dir.isValid());
    }

    void argumentsSplitAsAShellWould_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("plain") << "train.py --lr 3e-4" << QStringList{"train.py", "--lr", "3e-4"};
        QTest::newRow("quotes") << "--name \"my run\" --tag 'a b' x\"y\"z"
                                << QStringList{"--name", "my run", "--tag", "a b", "xyz"};
        QTest::newRow("escapes") << "a\\ b \"c\\\"d\" 'e\\f'" << QStringList{"a b", "c\"d", "e\\f"};
        QTest::newRow("empty word") << "--sep \"\" x" << QStringList{"--sep", "", "x"};
        QTest::newRow("nothing") << "   " << QStringList{};
        QTest::newRow("no expansion") << "$HOME *.py" << QStringList{"$HOME", "*.py"};
    }
    void argumentsSplitAsAShellWould() {
        QFETCH(QString, text);
        QFETCH(QStringList, words);
        auto split = splitArguments(text);
        QVERIFY2(split.has_value(), split ? "" : split.error().message.c_str());
        QCOMPARE(*split, words);
    }

    void unterminatedQuoteIsRefused() {
        auto split = splitArguments(QStringLiteral("--name \"my run"));
        QVERIFY(!split.has_value());
        QVERIFY(QString::fromStdString(split.error().message).contains("unterminated \" quote"));
    }

    void builtinModelSpec() {
        ProgramChoice c{
            "/usr/bin/python3", {"pipeline_gpt.py", "--steps", "6"}, m_dir.path(), "torchrun"};
        auto spec = jobSpecForProgram(gptPlan(), c);
        QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
        QCOMPARE(spec->model().command_size(), 4);
        QCOMPARE(spec->model().command(1), std::string("pipeline_gpt.py"));
        QCOMPARE(spec->model().launcher(), std::string("torchrun"));
        QCOMPARE(spec->model().workdir(), m_dir.path().toStdString());
        QVERIFY(spec->model().family().empty()); // the program trains, not tessera-train
        const auto& config = spec->model().config().fields();
        QCOMPARE(config.at("family").string_value(), std::string("gpt"));
        QCOMPARE(config.at("dim").number_value(), 96.0);
        QCOMPARE(config.at("blocks").number_value(), 3.0);
        QCOMPARE(spec->layout().stages_size(), 2);
        QCOMPARE(spec->layout().stages(1).first_layer(), 3);
        QCOMPARE(spec->layout().schedule(), v1::PIPELINE_SCHEDULE_GPIPE);
        QCOMPARE(spec->layout().zero_stage(), 3); // any ZeRO stage: the program implements it
        QCOMPARE(spec->training().global_batch(), 32);
        QCOMPARE(spec->dataset().name(), std::string("text"));
        QCOMPARE(spec->name(), std::string("python3 pipeline_gpt.py · DP1 × PP2 (designer)"));
        // It is a spec the backend takes (the same validation as a spec file's).
        auto parsed = parseJobSpec(jobSpecToJson(*spec), "designer");
        QVERIFY2(parsed.has_value(), parsed ? "" : parsed.error().message.c_str());
    }

    void importedModelCarriesItsConfigJson() {
        v1::PlanFile plan = gptPlan();
        plan.clear_model();
        plan.set_hf_config_json(kTinyLlama);
        auto spec = jobSpecForProgram(plan, {"/usr/bin/python3", {"train.py"}, {}, "mpirun"});
        QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
        const auto& config = spec->model().config().fields();
        QCOMPARE(config.at("model_type").string_value(), std::string("llama"));
        QCOMPARE(config.at("num_hidden_layers").number_value(), 4.0);
        QVERIFY(spec->model().workdir().empty());
    }

    void badChoicesSayWhatToFix_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("workdir");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no program") << "  " << QString() << "mpirun"
                                    << "Program";
        QTest::newRow("no folder") << "python3"
                                   << "/no/such/folder"
                                   << "mpirun"
                                   << "/no/such";
        QTest::newRow("relative folder") << "python3"
                                         << "code"
                                         << "mpirun"
                                         << "code";
        QTest::newRow("launcher") << "python3" << QString() << "srun"
                                  << "srun";
    }
    void badChoicesSayWhatToFix() {
        QFETCH(QString, program);
        QFETCH(QString, workdir);
        QFETCH(QString, launcher);
        QFETCH(QString, mentions);
        auto spec = jobSpecForProgram(gptPlan(), {program, {}, workdir, launcher});
        QVERIFY(!spec.has_value());
        QVERIFY2(QString::fromStdString(spec.error().message).contains(mentions),
                 spec.error().message.c_str());
    }

    void brokenConfigJsonIsRefused() {
        v1::PlanFile plan = gptPlan();
        plan.set_hf_config_json("[1, 2");
        auto spec = jobSpecForProgram(plan, {"python3", {}, {}, "mpirun"});
        QVERIFY(!spec.has_value());
        QVERIFY(QString::fromStdString(spec.error().message).contains("config.json"));
    }

    void dialogChecksAndRemembers() {
        {
            ProgramLaunchDialog dialog;
            auto* program = dialog.findChild<QLineEdit*>("programEdit");
            auto* arguments = dialog.findChild<QLineEdit*>("argumentsEdit");
            auto* workdir = dialog.findChild<QLineEdit*>("workdirEdit");
            auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QVERIFY(program && arguments && workdir && ok);
            program->clear();
            QVERIFY(!ok->isEnabled());
            QTest::keyClicks(program, "/usr/bin/python3");
            QVERIFY(ok->isEnabled());
            QTest::keyClicks(arguments, "train.py --name \"my run");
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Rejected)); // still open
            QVERIFY(dialog.errorText().contains("unterminated"));
            arguments->setText("train.py --name \"my run\"");
            workdir->setText("/no/such/folder");
            dialog.accept();
            QVERIFY(dialog.errorText().contains("/no/such/folder"));
            workdir->setText(m_dir.path());
            auto* launcher = dialog.findChild<QComboBox*>("launcherCombo");
            launcher->setCurrentIndex(launcher->findData("torchrun"));
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QVERIFY(dialog.errorText().isEmpty());
            auto c = dialog.choice();
            QVERIFY(c.has_value());
            QCOMPARE(c->arguments, (QStringList{"train.py", "--name", "my run"}));
        }
        ProgramLaunchDialog again; // the last choice comes back
        auto c = again.choice();
        QVERIFY(c.has_value());
        QCOMPARE(c->program, QStringLiteral("/usr/bin/python3"));
        QCOMPARE(c->arguments, (QStringList{"train.py", "--name", "my run"}));
        QCOMPARE(c->workdir, m_dir.path());
        QCOMPARE(c->launcher, QStringLiteral("torchrun"));
        // setChoice quotes what needs it, so the text splits back into the same words.
        again.setChoice({"python3", {"a b", "it's", "", "plain"}, {}, "mpirun"});
        QCOMPARE(again.choice()->arguments, (QStringList{"a b", "it's", "", "plain"}));
    }
};

QTEST_MAIN(TestProgramLaunch)
#include "tst_programlaunch.moc"
