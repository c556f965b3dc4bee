#pragma once
// Text wrapped, shortened or moved for the panels' narrow columns, so that it is never cut at a
// column's edge.
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace cachesim::gui {

// `text` with '\n' where it breaks into lines at most `width` wide (ImGui::CalcTextSize), at
// spaces only: ImGui's own wrapping also breaks after ',' and '.', inside 1,234,567 or 95.44%. A
// word wider than `width` has a line of its own.
std::string wrap_at_spaces(const std::string& text, float width);

// The first of `forms` (longest first) that is at most `width` wide on one line; "" when none is.
std::string first_that_fits(const std::vector<std::string>& forms, float width);

// ImGui::SameLine() when an item `width` wide still fits right of the last item in the window;
// otherwise the next item starts a line of its own.
void same_line_if_room(float width);

// The width a frame (a number or text field, a combo box) needs to show `text` whole; `arrow`
// adds a combo box's arrow button.
float frame_width_for(const std::string& text, bool arrow = false);

// The label to give the widget drawn next (`label` has no "##"). Where the widget, at the
// current item width and at least `needed_width` wide, and its label fit side by side in the
// window, the label stays beside it (ImGui's place, on its right); otherwise the label is drawn
// here on a line of its own, wrapped at spaces, and the widget fills the line below. The ID is
// the same either way, so a field being edited keeps the keyboard when its label moves.
std::string label_for_next_widget(const std::string& label, float needed_width);

// A checkbox's label wrapped at spaces to the room beside its box, with an ID that does not
// change with the wrapping.
std::string checkbox_label(const std::string& text);

// A label placed by label_for_next_widget, for --state: each line as drawn and its box, then the
// widget's frame.
struct PlacedLabel {
    std::string label;
    bool above = false;
    std::vector<std::pair<std::string, std::array<float, 4>>> lines;  // text, x y w h
    std::array<float, 4> frame{};                                     // x y w h
};
// The labels placed since the last call.
std::vector<PlacedLabel> take_placed_labels();

}  // namespace cachesim::gui
