// Trunk's initializer for the wasm (index.html, data-initializer): fills the loading line's
// progress bar with the bundle's bytes as they arrive, and says so in the page when the load
// fails. The app removes the loading frame (#boot) when it mounts.
export default function loading() {
  const bar = () => document.getElementById('boot-progress');
  return {
    onProgress: ({ current, total }) => {
      const b = bar();
      if (b && total > 0) b.value = Math.min(current / total, 1);
    },
    onFailure: (error) => {
      const text = document.getElementById('boot-text');
      if (text) text.textContent = `The simulator could not be loaded: ${error}`;
      sqsPlaygroundCrashed(`loading the simulator failed: ${error}`);
    },
  };
}
