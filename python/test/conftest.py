# pytester runs the plugin's own pytest sessions (test_plugin.py).
pytest_plugins = ["pytester"]
