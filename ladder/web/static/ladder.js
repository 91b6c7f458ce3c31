// Small helpers; every page works without them.
// Buttons of forms marked data-confirm ask first (retiring cannot be undone).
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
// A copy button next to a freshly created API token.
document.querySelectorAll("[data-copy]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => {
    const text = document.getElementById(button.dataset.copy).textContent.trim();
    navigator.clipboard.writeText(text).then(() => { button.textContent = "Copied"; });
  });
});
