// An output file the user may not write is refused by every subcommand that writes one (exit 2,
// a message naming the file, the file as it was, no temporary, lock or partial log), as a shell
// redirection refuses it, even where the directory would let a new file be renamed over it. Run
// as user nobody through setpriv on a file of root's, mode 0444, in a directory anyone may write.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

const std::string kAsNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
const std::string kKept = "kept\n";

bool setpriv_available() { return std::system("command -v setpriv >/dev/null 2>&1") == 0; }

// A directory anyone may write in (mode 1777), holding each of `names` with kKept, mode 0444.
fs::path directory_with_read_only_files(const std::string& dir_name, const std::vector<std::string>& names) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / dir_name);
    fs::permissions(test::temp_dir(), fs::perms::others_exec, fs::perm_options::add);
    fs::permissions(dir, fs::perms::all | fs::perms::sticky_bit);
    for (const std::string& name : names) {
        std::ofstream(dir / name) << kKept;
        fs::permissions(dir / name, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    }
    return dir;
}

class CliOutputUnwritable : public ::testing::Test {
protected:
    void SetUp() override {
        if (::geteuid() != 0) GTEST_SKIP() << "needs root, to make a file that user nobody may not write";
        if (!setpriv_available()) GTEST_SKIP() << "needs setpriv (util-linux), to run cachesim as user nobody";
    }
};

TEST_F(CliOutputUnwritable, EverySubcommandRefusesAFileItMayNotWrite) {
    const fs::path dir = directory_with_read_only_files("refused", {"out.txt"});
    const std::string out = (dir / "out.txt").string();
    for (const std::string& command : {"simulate --size 8x8 -o '" + out + "'", "trace -q --size 8x8 -o '" + out + "'",
                                       "diagram --size 8x8 -o '" + out + "'",
                                       "sweep -q --size 8x8 --l1-size 256,512 -o '" + out + "'",
                                       "sweep -q --size 8x8 --l1-size 256,512 --plot '" + out + "'"}) {
        const auto r = test::run_shell(kAsNobody + "CACHESIM " + command);
        EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
        EXPECT_NE(r.err.find(out + ": cannot write (Permission denied)"), std::string::npos) << command << "\n" << r.err;
        EXPECT_EQ(test::read_file(out), kKept) << command;
        struct stat st {};
        ASSERT_EQ(::stat(out.c_str(), &st), 0);
        EXPECT_EQ(st.st_uid, 0u) << command << " replaced root's file";
        EXPECT_EQ(test::files_in(dir), 1u) << command << " left a temporary, lock or partial log";
    }
}

TEST_F(CliOutputUnwritable, ASymlinkToItIsRefusedNamingTheTarget) {
    const fs::path dir = directory_with_read_only_files("refused-link", {"out.csv"});
    fs::create_symlink("out.csv", dir / "link.csv");
    const std::string link = (dir / "link.csv").string();
    const auto r = test::run_shell(kAsNobody + "CACHESIM sweep -q --size 8x8 --l1-size 256,512 -o '" + link + "'");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(link + ": cannot write (Permission denied): its target " + (dir / "out.csv").string()),
              std::string::npos)
        << r.err;
    EXPECT_EQ(test::read_file(dir / "out.csv"), kKept);
    EXPECT_EQ(test::files_in(dir), 2u);
}

TEST_F(CliOutputUnwritable, TheSameUserWritesANewFileThereAndRootReplacesTheReadOnlyOne) {
    const fs::path dir = directory_with_read_only_files("allowed", {"out.txt"});
    // Nobody may create files in the directory: what is refused above is the file alone.
    const auto fresh = test::run_shell(kAsNobody + "CACHESIM simulate --size 8x8 -o '" + (dir / "new.txt").string() + "'");
    EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
    EXPECT_NE(test::read_file(dir / "new.txt").find("stencil 8x8"), std::string::npos);
    // Root may write a file of mode 0444, as its shell redirections do; the mode is kept.
    const auto root = test::run_cachesim("simulate --size 8x8 -o '" + (dir / "out.txt").string() + "'");
    EXPECT_EQ(root.exit_code, 0) << root.err;
    EXPECT_NE(test::read_file(dir / "out.txt").find("stencil 8x8"), std::string::npos);
    EXPECT_EQ(fs::status(dir / "out.txt").permissions(),
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
}

}  // namespace
}  // namespace cachesim
