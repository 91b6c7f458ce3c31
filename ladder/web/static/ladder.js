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
// A file over the upload limit is refused here, before it is sent: the server would refuse the
// whole request unread (413) and the form's other fields would be lost.
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!input.dataset || !input.dataset.maxBytes || !input.files || !input.files[0]) return;
  const limit = Number(input.dataset.maxBytes), size = input.files[0].size;
  input.setCustomValidity(size > limit ? `This file has ${size} bytes; a bot may have at most ${limit} bytes.` : "");
  input.reportValidity();
});
