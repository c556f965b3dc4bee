#pragma once
// A diagram on screen as one texture with one texel per visible cell bucket of the pyramid level
// that matches the zoom. The texture is addressed modulo its size (a torus), so panning writes
// only the newly exposed cells; a zoom that changes the level, a new diagram or a resize rewrites
// the visible cells once. Drawn through ImGui as up to four textured quads.
#include <SFML/Graphics/Texture.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "viz/diagram.hpp"

struct ImDrawList;

namespace cachesim::viz::gui {

// The part of the diagram shown: steps [t0, t1) and rows [r0, r1) on a width x height pixel area.
struct Viewport {
    double t0 = 0, t1 = 1, r0 = 0, r1 = 1;
    int width = 1, height = 1;
};

class DiagramTexture {
public:
    void set_diagram(std::shared_ptr<const Diagram> diagram);
    // A difference view: the cells of `diagram` where `other` (same steps, rows and cell sizes)
    // shows another state are drawn in kDifferent, the others in a pale tint of their state.
    void set_difference(std::shared_ptr<const Diagram> diagram, std::shared_ptr<const Diagram> other);
    static constexpr Rgba kDifferent{231, 41, 138, 255};
    static Rgba pale(Rgba c) { return {static_cast<std::uint8_t>(c.r / 4 + 191), static_cast<std::uint8_t>(c.g / 4 + 191),
                                       static_cast<std::uint8_t>(c.b / 4 + 191), 255}; }
    // True when two diagrams have the same shape (a difference view can compare them cell by cell).
    static bool same_shape(const Diagram& a, const Diagram& b);
    const std::shared_ptr<const Diagram>& diagram() const { return diagram_; }

    // Brings the texture up to date for `view`; returns the number of texels written.
    std::size_t update(const Viewport& view);
    // Draws the view's cells with the top-left corner of the view at (x, y) in screen pixels.
    void draw(ImDrawList* list, float x, float y, const Viewport& view) const;

    int time_level() const { return lt_; }
    // Cell buckets (texels) the last update made visible.
    std::uint64_t visible_texels() const { return valid_.empty() ? 0 : (valid_.c1 - valid_.c0) * (valid_.r1 - valid_.r0); }
    int row_level() const { return lr_; }

private:
    struct Range {
        std::uint64_t c0 = 0, c1 = 0, r0 = 0, r1 = 0;  // cells at the current level
        bool empty() const { return c0 >= c1 || r0 >= r1; }
    };
    Range visible(const Viewport& view, int lt, int lr) const;
    void choose_levels(const Viewport& view, int& lt, int& lr) const;
    std::size_t fill(std::uint64_t c0, std::uint64_t c1, std::uint64_t r0, std::uint64_t r1);

    std::shared_ptr<const Diagram> diagram_, other_;
    sf::Texture texture_;
    unsigned tw_ = 0, th_ = 0;
    int lt_ = -1, lr_ = -1;
    Range valid_;
    std::vector<std::uint8_t> scratch_;
};

}  // namespace cachesim::viz::gui
