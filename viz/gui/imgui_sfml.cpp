#include "viz/gui/imgui_sfml.hpp"

#include <SFML/Window/Clipboard.hpp>
#include <imgui.h>
#include <backends/imgui_impl_opengl2.h>

#include <algorithm>
#include <deque>
#include <vector>
#include <string>

namespace cachesim::viz::gui {

namespace {

std::string g_clipboard;

// Input events wait in a queue and are applied at the start of a frame, but a button or key
// changes at most once per frame: its second change (the release of a press in the same frame)
// and every event after it wait for the next frame. ImGui samples MouseDown / KeysDown once per
// frame, so a click or key press shorter than a frame is still seen: down for one frame, then up.
std::deque<sf::Event> g_queue;
bool g_poll_modifiers = true;

const char* get_clipboard(void*) {
    g_clipboard = sf::Clipboard::getString().toAnsiString();
    return g_clipboard.c_str();
}

void set_clipboard(void*, const char* text) { sf::Clipboard::setString(sf::String::fromUtf8(text, text + std::char_traits<char>::length(text))); }

int mouse_index(sf::Mouse::Button b) {
    switch (b) {
        case sf::Mouse::Left: return 0;
        case sf::Mouse::Right: return 1;
        case sf::Mouse::Middle: return 2;
        case sf::Mouse::XButton1: return 3;
        case sf::Mouse::XButton2: return 4;
        default: return -1;
    }
}

}  // namespace

void imgui_init(sf::RenderWindow& window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini next to the user's files
    io.BackendPlatformName = "cachesim_sfml";
    // 1.86 keyboard API: KeyMap maps ImGui's named keys to indices into KeysDown; we index
    // KeysDown by SFML key code.
    io.KeyMap[ImGuiKey_Tab] = sf::Keyboard::Tab;
    io.KeyMap[ImGuiKey_LeftArrow] = sf::Keyboard::Left;
    io.KeyMap[ImGuiKey_RightArrow] = sf::Keyboard::Right;
    io.KeyMap[ImGuiKey_UpArrow] = sf::Keyboard::Up;
    io.KeyMap[ImGuiKey_DownArrow] = sf::Keyboard::Down;
    io.KeyMap[ImGuiKey_PageUp] = sf::Keyboard::PageUp;
    io.KeyMap[ImGuiKey_PageDown] = sf::Keyboard::PageDown;
    io.KeyMap[ImGuiKey_Home] = sf::Keyboard::Home;
    io.KeyMap[ImGuiKey_End] = sf::Keyboard::End;
    io.KeyMap[ImGuiKey_Insert] = sf::Keyboard::Insert;
    io.KeyMap[ImGuiKey_Delete] = sf::Keyboard::Delete;
    io.KeyMap[ImGuiKey_Backspace] = sf::Keyboard::Backspace;
    io.KeyMap[ImGuiKey_Space] = sf::Keyboard::Space;
    io.KeyMap[ImGuiKey_Enter] = sf::Keyboard::Enter;
    io.KeyMap[ImGuiKey_Escape] = sf::Keyboard::Escape;
    io.KeyMap[ImGuiKey_KeyPadEnter] = sf::Keyboard::Enter;
    io.KeyMap[ImGuiKey_A] = sf::Keyboard::A;
    io.KeyMap[ImGuiKey_C] = sf::Keyboard::C;
    io.KeyMap[ImGuiKey_V] = sf::Keyboard::V;
    io.KeyMap[ImGuiKey_X] = sf::Keyboard::X;
    io.KeyMap[ImGuiKey_Y] = sf::Keyboard::Y;
    io.KeyMap[ImGuiKey_Z] = sf::Keyboard::Z;
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    const sf::Vector2u size = window.getSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
    window.setActive(true);
    ImGui_ImplOpenGL2_Init();
}

namespace {

void apply_event(const sf::Event& e) {
    ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
        case sf::Event::MouseMoved:
            io.MousePos = ImVec2(static_cast<float>(e.mouseMove.x), static_cast<float>(e.mouseMove.y));
            break;
        case sf::Event::MouseButtonPressed:
        case sf::Event::MouseButtonReleased: {
            const int b = mouse_index(e.mouseButton.button);
            if (b >= 0) io.MouseDown[b] = e.type == sf::Event::MouseButtonPressed;
            io.MousePos = ImVec2(static_cast<float>(e.mouseButton.x), static_cast<float>(e.mouseButton.y));
            break;
        }
        case sf::Event::MouseWheelScrolled:
            if (e.mouseWheelScroll.wheel == sf::Mouse::VerticalWheel) io.MouseWheel += e.mouseWheelScroll.delta;
            else io.MouseWheelH += e.mouseWheelScroll.delta;
            break;
        case sf::Event::KeyPressed:
        case sf::Event::KeyReleased: {
            const int k = e.key.code;
            if (k >= 0 && k < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) io.KeysDown[k] = e.type == sf::Event::KeyPressed;
            io.KeyCtrl = e.key.control;
            io.KeyShift = e.key.shift;
            io.KeyAlt = e.key.alt;
            io.KeySuper = e.key.system;
            break;
        }
        case sf::Event::TextEntered:
            // Control characters arrive as key presses; only printable text goes in.
            if (e.text.unicode >= 32 && e.text.unicode != 127) io.AddInputCharacter(e.text.unicode);
            break;
        case sf::Event::Resized:
            io.DisplaySize = ImVec2(static_cast<float>(e.size.width), static_cast<float>(e.size.height));
            break;
        case sf::Event::LostFocus:
            for (bool& down : io.KeysDown) down = false;
            for (bool& down : io.MouseDown) down = false;
            io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
            break;
        case sf::Event::MouseLeft:
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            break;
        default:
            break;
    }
}

// Which button or key an event changes: 0..4 mouse buttons, 5 + key code keys; -1 none.
int input_slot(const sf::Event& e) {
    if (e.type == sf::Event::MouseButtonPressed || e.type == sf::Event::MouseButtonReleased) return mouse_index(e.mouseButton.button);
    if ((e.type == sf::Event::KeyPressed || e.type == sf::Event::KeyReleased) && e.key.code >= 0) return 5 + e.key.code;
    return -1;
}

// Applies the queued events up to the second change of any one button or key.
void apply_queued_events() {
    std::vector<int> changed;
    while (!g_queue.empty()) {
        const sf::Event& e = g_queue.front();
        const int slot = input_slot(e);
        if (slot >= 0) {
            if (std::find(changed.begin(), changed.end(), slot) != changed.end()) break;
            changed.push_back(slot);
        }
        apply_event(e);
        g_queue.pop_front();
    }
}

}  // namespace

void imgui_process_event(const sf::Event& e) {
    switch (e.type) {
        case sf::Event::Resized:
            apply_event(e);
            break;
        case sf::Event::LostFocus:
            g_queue.clear();  // nothing pressed before losing the focus stays pressed
            apply_event(e);
            break;
        default:
            g_queue.push_back(e);
    }
}

bool imgui_input_pending() { return !g_queue.empty(); }

void imgui_new_frame(const sf::RenderWindow& window, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    const sf::Vector2u size = window.getSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.x), static_cast<float>(size.y));
    io.DeltaTime = dt > 0.0f ? dt : 1.0f / 60.0f;
    // Modifiers are polled too: a key released outside the window sends no event.
    if (g_poll_modifiers && window.hasFocus()) {
        io.KeyCtrl = sf::Keyboard::isKeyPressed(sf::Keyboard::LControl) || sf::Keyboard::isKeyPressed(sf::Keyboard::RControl);
        io.KeyShift = sf::Keyboard::isKeyPressed(sf::Keyboard::LShift) || sf::Keyboard::isKeyPressed(sf::Keyboard::RShift);
        io.KeyAlt = sf::Keyboard::isKeyPressed(sf::Keyboard::LAlt) || sf::Keyboard::isKeyPressed(sf::Keyboard::RAlt);
    }
    apply_queued_events();
    ImGui_ImplOpenGL2_NewFrame();
    ImGui::NewFrame();
}

void imgui_take_modifiers_from_events_only() { g_poll_modifiers = false; }

void imgui_render(sf::RenderWindow& window) {
    window.setActive(true);
    ImGui_ImplOpenGL2_RenderDrawData(ImGui::GetDrawData());
}

void imgui_shutdown() {
    ImGui_ImplOpenGL2_Shutdown();
    ImGui::DestroyContext();
}

}  // namespace cachesim::viz::gui
