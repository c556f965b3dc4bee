#include "apps/common/atomic_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <array>
#include <filesystem>
#include <string_view>

#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

void write_file_atomically(const std::string& path, std::string_view content) {
    write_output_file(path, content);
}

bool writes_to_stdout(const std::string& path) {
    if (path == "-") return true;
    struct stat out {}, target {};
    return ::fstat(1, &out) == 0 && ::stat(path.c_str(), &target) == 0 && out.st_dev == target.st_dev &&
           out.st_ino == target.st_ino;
}

void check_png_name(const std::string& path, const std::string& option) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    constexpr std::array<std::string_view, 12> kOtherImages{".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff",
                                                            ".webp", ".svg", ".pdf", ".eps", ".ps", ".ppm"};
    if (std::find(kOtherImages.begin(), kOtherImages.end(), ext) != kOtherImages.end())
        throw InputError(option + " " + path + ": the image is a PNG, not " + ext.substr(1) +
                         "; name the file .png (or convert it afterwards)");
}

}  // namespace cachesim::cli
