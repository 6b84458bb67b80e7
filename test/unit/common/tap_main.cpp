// The unit tests' main: Google Test's results in TAP, the format every suite of the project reports in (one TAP
// test per test case, a failure's messages as diagnostics after it), so the test command and prove read them alike.
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

namespace {

class TapPrinter final : public testing::EmptyTestEventListener {
public:
    void OnTestPartResult(const testing::TestPartResult& result) override {
        if (!result.failed()) return;
        const std::string where = result.file_name() == nullptr
                                      ? std::string("(unknown)")
                                      : std::string(result.file_name()) + ":" + std::to_string(result.line_number());
        diagnostics_.push_back(where + ": " + result.summary());
    }

    void OnTestEnd(const testing::TestInfo& info) override {
        ++count_;
        const testing::TestResult& result = *info.result();
        const std::string name = std::string(info.test_suite_name()) + "." + info.name();
        if (result.Skipped()) {
            std::printf("ok %d # SKIP %s\n", count_, name.c_str());
        } else {
            std::printf("%s %d - %s\n", result.Passed() ? "ok" : "not ok", count_, name.c_str());
        }
        for (const std::string& diagnostic : diagnostics_) print_diagnostic(diagnostic);
        diagnostics_.clear();
        std::fflush(stdout);
    }

    void OnTestProgramEnd(const testing::UnitTest&) override {
        std::printf("1..%d\n", count_);
        std::fflush(stdout);
    }

private:
    // every line of a message as a TAP comment, so none is read as a result
    static void print_diagnostic(std::string_view text) {
        while (!text.empty()) {
            const std::string_view::size_type end = text.find('\n');
            const std::string_view line = text.substr(0, end);
            std::printf("# %.*s\n", static_cast<int>(line.size()), line.data());
            if (end == std::string_view::npos) break;
            text.remove_prefix(end + 1);
        }
    }

    int count_ = 0;
    std::vector<std::string> diagnostics_;
};

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new TapPrinter);
    return RUN_ALL_TESTS();
}
